import { parseExpression } from "feelin";
import { isStructural, typeTest } from "./structural-types";

// Expressions whose meaning in DMN 1.5 feelin's evaluator cannot see from the values alone, rewritten once at compile
// time on feelin's own syntax tree (names with spaces known), into calls that builtin-scope.ts binds:
// - a comparison in unary-test syntax used as a value, `(< 10)`, `(= x)`, becomes `__unary_comparison("<", 10)`
//   (unary-comparison.ts), which remembers how it was written; not where it is a test already (`x in (< 10)`,
//   a filter `l[(< 3)]`), where it keeps feelin's meaning;
// - an interval literal iterated by `for`, `some` or `every` becomes `__ascending([a..b])` (range-iteration.ts): a
//   descending literal such as `[2..1]` is no range, so the iteration is null; `for i in 2..1` still counts down;
// - `x instance of` a list or context type made of FEEL's own types becomes `__instance_of(x, "<type>")`
//   (structural-types.ts), where null items and entries conform;
// - a function literal with typed parameters, `function(a: number) body`, checks its arguments:
//   `function(a) if __conforms(a, "number") then (body) else null`.
// What an edit keeps of the text inside it is rewritten the same way.

type Node = NonNullable<ReturnType<typeof parseExpression>["topNode"]["firstChild"]>;
type Edit = { from: number; to: number; text: string };

const MAY_REWRITE = /\(\s*(?:[<>]=?|!?=)|\bin\s*[[(\]]|\binstance\s+of\s+(?:list|context)\s*<|\bfunction\s*\([^)]*:/;
const KEEP_AS_TEST = new Set(["PositiveUnaryTest", "FilterExpression"]);

export function rewriteExpression(src: string, names: readonly string[]): string {
  if (!MAY_REWRITE.test(src)) return src;
  const ctx: Record<string, null> = {};
  for (const n of names) ctx[n] = null;
  const edits: Edit[] = [];
  parseExpression(src, ctx, undefined).iterate({
    enter(ref) {
      const edit = editOf(ref.node as Node, src, (inner) => rewriteExpression(inner, names));
      if (edit) edits.push(edit);
      return !edit;
    },
  });
  let out = src;
  for (const e of edits.reverse()) out = out.slice(0, e.from) + e.text + out.slice(e.to);
  return out;
}

function editOf(n: Node, src: string, again: (inner: string) => string): Edit | undefined {
  const text = (x: Node) => again(src.slice(x.from, x.to));
  if (n.name === "ParenthesizedExpression" && !KEEP_AS_TEST.has(n.parent?.name ?? "")) {
    const test = n.firstChild?.nextSibling;
    const op = test?.name === "SimplePositiveUnaryTest" ? test.firstChild : null;
    const endpoint = op?.nextSibling;
    if (op?.name !== "CompareOp" || !endpoint || endpoint.nextSibling) return undefined;
    return { from: n.from, to: n.to, text: `__unary_comparison("${text(op)}", ${text(endpoint)})` };
  }
  if (n.name === "IterationContext") {
    const only = n.firstChild;
    if (only?.nextSibling || only?.name !== "SimplePositiveUnaryTest" || only.firstChild?.name !== "Interval") {
      return undefined;
    }
    return { from: only.from, to: only.to, text: `__ascending(${text(only)})` };
  }
  if (n.name === "InstanceOfExpression") {
    const value = n.firstChild;
    const type = n.getChild("Type");
    if (!value || !type || !isStructural(type) || !typeTest(type, src)) return undefined;
    return {
      from: n.from,
      to: n.to,
      text: `__instance_of(${text(value)}, ${JSON.stringify(src.slice(type.from, type.to))})`,
    };
  }
  if (n.name === "FunctionDefinition") return typedFunction(n, src, text);
  return undefined;
}

function typedFunction(n: Node, src: string, text: (x: Node) => string): Edit | undefined {
  const params = n.getChild("FormalParameters")?.getChildren("FormalParameter") ?? [];
  const body = n.getChild("FunctionBody");
  const typed = params.filter((p) => p.getChild("Type"));
  if (!body || typed.length === 0 || n.getChild("external")) return undefined;
  if (typed.some((p) => !typeTest(p.getChild("Type")!, src))) return undefined; // a type not FEEL's own: as before
  const names = params.map((p) => src.slice(p.getChild("ParameterName")!.from, p.getChild("ParameterName")!.to));
  const checks = typed.map((p) => {
    const name = src.slice(p.getChild("ParameterName")!.from, p.getChild("ParameterName")!.to);
    const type = p.getChild("Type")!;
    return `__conforms(${name}, ${JSON.stringify(src.slice(type.from, type.to))})`;
  });
  return {
    from: n.from,
    to: n.to,
    text: `function(${names.join(", ")}) if ${checks.join(" and ")} then (${text(body)}) else null`,
  };
}
