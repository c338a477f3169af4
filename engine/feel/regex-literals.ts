import { evaluate, type parseExpression } from "feelin";
import { RegexRefusedError } from "../regex/linear";
import { xsdRegex } from "./xsd-regex";

// A pattern written as a literal in a model (`matches(x, "(a+)\1")`) is checked when the text compiles, so a pattern
// the linear-time engine cannot run refuses the deploy, naming the element, instead of failing every evaluation.

type Tree = ReturnType<typeof parseExpression>;
type Node = ReturnType<Tree["resolve"]>;

// Where each function takes its pattern and flags, by position and by name.
const ARGS: Record<string, { pattern: [number, string]; flags: [number, string] }> = {
  matches: { pattern: [1, "pattern"], flags: [2, "flags"] },
  replace: { pattern: [1, "pattern"], flags: [3, "flags"] },
  split: { pattern: [1, "delimiter"], flags: [2, "flags"] },
};

const children = (n: Node | null): Node[] => {
  const out: Node[] = [];
  for (let c = n?.firstChild ?? null; c; c = c.nextSibling) if (c.name !== "," && c.name !== "Comma") out.push(c);
  return out;
};

/** The value of a string literal node; undefined for any other node. */
function literal(n: Node | undefined, text: string): string | undefined {
  if (n?.name !== "StringLiteral") return undefined;
  const v = evaluate(text.slice(n.from, n.to), {}).value;
  return typeof v === "string" ? v : undefined;
}

function argument(params: Node | null, at: [number, string], text: string): Node | undefined | null {
  if (params?.name === "PositionalParameters") return children(params)[at[0]];
  if (params?.name !== "NamedParameters") return undefined;
  for (const p of children(params)) {
    const [name, value] = children(p);
    if (name && text.slice(name.from, name.to).trim() === at[1]) return value;
  }
  return undefined;
}

/** Why a literal pattern of matches/replace/split in `text` cannot run on the linear-time engine, or undefined. */
export function regexLiteralRefusal(tree: Tree, text: string): string | undefined {
  let refusal: string | undefined;
  tree.iterate({
    enter(ref) {
      if (refusal || ref.name !== "FunctionInvocation") return !refusal;
      const [callee, , params] = children(ref.node);
      const spec = callee && ARGS[text.slice(callee.from, callee.to).trim()];
      if (!spec) return true;
      const pattern = literal(argument(params, spec.pattern, text) ?? undefined, text);
      const flagsNode = argument(params, spec.flags, text);
      const flags = flagsNode ? literal(flagsNode, text) : "";
      if (pattern === undefined || flags === undefined) return true;
      try {
        xsdRegex(pattern, flags);
      } catch (e) {
        if (!(e instanceof RegexRefusedError)) throw e;
        refusal = e.message;
      }
      return !refusal;
    },
  });
  return refusal;
}
