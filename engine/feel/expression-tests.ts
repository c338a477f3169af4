import { parseUnaryTests } from "feelin";
import { compileExpression } from "./expression";
import { feelinUnaryTest } from "./feelin-call";
import { type FeelResult, ok } from "./result";

type Vars = Record<string, unknown>;
type Tests = (input: unknown, vars: Vars, scope?: (vars: Vars) => Vars) => FeelResult<boolean>;

// Unary tests made of plain expressions (`Complex.aBoolean`, `not(flag)`, `a, b`), DMN 1.5 §7.3.2 (a) and (c): such
// a test is satisfied when the input equals the expression's value, or when the value is true "when the input is
// applied to it". feelin takes a boolean value as the answer alone, so an input false never matched an entry whose
// value is false, and an input false matched one whose value is true (TCK 0036). Here a boolean value meeting a
// boolean input is compared with it (a); meeting any other input it is the answer, as before (c: `age > 18` under a
// number column). Other values go to feelin's own test (equality, range and list membership). Texts naming `?` are
// left to feelin: there the expression is the test.

const booleanTest = (value: boolean, input: unknown) => (typeof input === "boolean" ? value === input : value);

/** The compiled tests when every test of `src` is a plain expression; undefined otherwise. */
export function compileExpressionTests(src: string, names: readonly string[]): Tests | undefined {
  if (src.includes("?")) return undefined;
  const ctx: Record<string, null> = {};
  for (const n of names) ctx[n] = null;
  const top = parseUnaryTests(src, ctx, undefined).topNode;
  let negated = false;
  const parts: string[] = [];
  for (let c = top.firstChild; c; c = c.nextSibling) {
    if (c.name === "not") negated = true;
    else if (c.name === "PositiveUnaryTests") {
      for (let t = c.firstChild; t; t = t.nextSibling) {
        if (t.name !== "PositiveUnaryTest") continue;
        const e = t.firstChild;
        if (!e || e.nextSibling || e.name === "SimplePositiveUnaryTest" || e.name.endsWith("Literal")) return undefined;
        parts.push(src.slice(e.from, e.to));
      }
    } else if (c.name !== "(" && c.name !== ")") return undefined;
  }
  if (parts.length === 0) return undefined;
  const compiled: [string, (vars: Vars) => FeelResult<unknown>][] = [];
  for (const p of parts) {
    const c = compileExpression(p, names);
    if (!c.ok) return undefined;
    compiled.push([p, c.value]);
  }
  return (input, vars, scope) => {
    const all = scope ? scope(vars) : vars;
    let hit = false;
    for (const [text, run] of compiled) {
      const v = run(vars);
      if (!v.ok) return v;
      const r = typeof v.value === "boolean" ? ok(booleanTest(v.value, input)) : feelinUnaryTest(text, input, all);
      if (!r.ok) return r;
      if (r.value) {
        hit = true;
        break;
      }
    }
    return ok(negated ? !hit : hit);
  };
}
