import { FeelFunction, FeelRange, parseExpression } from "feelin";
import { boundedCache } from "./cache";
import { ELEMENT_TESTS, RANGE_TYPES } from "./range-types";
import { isContextValue } from "./values";

// `x instance of list<T>` / `context<k: T, ...>` (DMN 1.5 §10.3.2.9): a value conforms to a structural type when its
// items (or the named entries; more entries are allowed) conform, and null conforms to every type there
// (`{a: null} instance of context<a: string>` holds; feelin refuses the null). Only `null instance of T` itself is
// false. expression-rewrite.ts turns such a test into `__instance_of(x, "<type>")` when every type it names is one of
// FEEL's own (an item definition's name keeps feelin's test, bound by engine/dmn/instance-of.ts).

type Node = NonNullable<ReturnType<typeof parseExpression>["topNode"]["firstChild"]>;
type Test = (v: unknown) => boolean;

const LEAF_TESTS: Record<string, Test> = {
  ...ELEMENT_TESTS,
  Any: (v) => v !== null && v !== undefined,
  Null: (v) => v === null || v === undefined,
  context: isContextValue,
  list: Array.isArray,
  range: (v) => v instanceof FeelRange,
  function: (v) => v instanceof FeelFunction,
};

/** The test of a type node of feelin's tree, or undefined when it names something other than FEEL's own types. */
export function typeTest(type: Node, src: string): Test | undefined {
  const t = type.name === "Type" ? type.firstChild : type;
  if (!t) return undefined;
  if (t.name === "ListType") {
    const item = t.getChild("Type");
    const test = item ? typeTest(item, src) : undefined;
    return test && ((v) => Array.isArray(v) && v.every((x) => x === null || test(x)));
  }
  if (t.name === "ContextType") {
    const entries: [string, Test][] = [];
    for (const e of t.getChild("ContextEntryTypes")?.getChildren("ContextEntryType") ?? []) {
      const name = e.getChild("Name");
      const et = e.getChild("Type");
      const test = et && typeTest(et, src);
      if (!name || !test) return undefined;
      entries.push([src.slice(name.from, name.to).replace(/\s+/g, " "), test]);
    }
    return (v) =>
      isContextValue(v) && entries.every(([k, test]) => Object.hasOwn(v, k) && (v[k] === null || test(v[k])));
  }
  if (t.name === "QualifiedName" || t.name === "SpecialType") {
    const name = src.slice(t.from, t.to).replace(/\s+/g, " ").trim();
    const range = RANGE_TYPES[name] as { [Symbol.hasInstance]?: Test } | undefined;
    return LEAF_TESTS[name] ?? (range ? (v) => v instanceof (range as unknown as typeof Object) : undefined);
  }
  return undefined;
}

/** Whether a type node is structural (a list or context type, at any depth): feelin's test departs from DMN there. */
export function isStructural(type: Node): boolean {
  let found = false;
  type.toTree().iterate({
    enter(n) {
      if (n.name === "ListType" || n.name === "ContextType") found = true;
      return !found;
    },
  });
  return found;
}

const tests = boundedCache<Test | undefined>(1_000);

function testOfText(type: string): Test | undefined {
  return tests.getOrCreate(type, () => {
    const src = `x instance of ${type}`;
    const node = parseExpression(src, {}, undefined).topNode.firstChild?.getChild("Type");
    return node ? typeTest(node, src) : undefined;
  });
}

function instanceOf(value: unknown, type: unknown): boolean | null {
  if (typeof type !== "string") return null;
  return value !== null && value !== undefined && testOfText(type)?.(value) === true;
}

// A typed parameter of a FEEL function literal, `function(a: number) …` (expression-rewrite.ts): the argument must
// conform (null does), else the invocation is null (§10.3.2.13.2); feelin ignored the type.
function conforms(value: unknown, type: unknown): boolean {
  return value === null || value === undefined || (typeof type === "string" && testOfText(type)?.(value) === true);
}

export const INSTANCE_OF_FUNCTIONS: Record<string, FeelFunction> = {
  __instance_of: new FeelFunction(instanceOf, ["value", "type"]),
  __conforms: new FeelFunction(conforms, ["value", "type"]),
};
