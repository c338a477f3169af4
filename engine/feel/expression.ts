import { compileArithmetic } from "./arithmetic";
import { builtinScope } from "./builtin-scope";
import { boundedCache } from "./cache";
import { compileEquality } from "./equality";
import { rewriteExpression } from "./expression-rewrite";
import { feelSourceText } from "./source-text";
import { feelinEvaluate, syntaxError } from "./feelin-call";
import { type FeelResult, fail, ok } from "./result";
import { readLiteral, scan } from "./scan";
import { isContextValue } from "./values";

type Vars = Record<string, unknown>;

/** A compiled FEEL expression: evaluation returns the value or the error, never throws on data. */
export type CompiledExpression = (vars: Vars) => FeelResult<unknown>;

// Words that look like names to the scanner but mean something else in FEEL.
const KEYWORDS = new Set([
  "true",
  "false",
  "null",
  "not",
  "and",
  "or",
  "if",
  "then",
  "else",
  "for",
  "in",
  "return",
  "some",
  "every",
  "satisfies",
  "function",
  "instance",
  "of",
  "between",
  "external",
]);

const NULL = ok(null);
const cache = boundedCache<FeelResult<CompiledExpression>>(10_000);

/**
 * Compile a FEEL expression once (cached by its text and the names with spaces it may use): literals become
 * constants and dotted names direct lookups, arithmetic runs on decimals (arithmetic.ts); the rest is syntax-checked
 * now and evaluated by feelin.
 * A syntax error is returned, not thrown.
 */
export function compileExpression(
  text: string | undefined,
  names: readonly string[] = [],
): FeelResult<CompiledExpression> {
  const raw = (text ?? "").trim();
  return cache.getOrCreate(`e\u0000${names.join("\u0001")}\u0000${raw}`, () => {
    const text = feelSourceText(raw).trim();
    if (text === "") return ok(() => NULL);
    const fast = compileFast(text);
    if (fast) return ok(fast);
    const error = syntaxError(text, "expression", names);
    if (error) return fail(error);
    const src = rewriteExpression(text, names);
    const run =
      compileArithmetic(src, names) ??
      compileEquality(src, names, compileExpression) ??
      ((vars: Vars) => feelinEvaluate(src, vars));
    const scope = builtinScope(src);
    return ok(scope ? (vars: Vars) => run(scope(vars)) : run);
  });
}

function compileFast(src: string): CompiledExpression | undefined {
  const tokens = scan(src);
  if (!tokens || tokens.length === 0) return undefined;
  const lit = readLiteral(tokens, 0);
  if (lit && lit.next === tokens.length) {
    const value = ok(lit.lit.value);
    return () => value;
  }
  const path: string[] = [];
  for (let i = 0; i < tokens.length; i += 2) {
    const tok = tokens[i];
    if (tok.t !== "name" || KEYWORDS.has(tok.v)) return undefined;
    path.push(tok.v);
    const sep = tokens[i + 1];
    if (sep && !(sep.t === "op" && sep.v === ".")) return undefined;
    if (sep && i + 2 >= tokens.length) return undefined;
  }
  const slow = (vars: Vars) => feelinEvaluate(src, vars);
  const [head, ...rest] = path;
  // Only plain lookups take the shortcut; missing names and properties of temporals go to feelin.
  return (vars) => {
    if (!Object.hasOwn(vars, head)) return slow(vars);
    let v = vars[head];
    for (const key of rest) {
      if (!isContextValue(v) || !Object.hasOwn(v, key)) return slow(vars);
      v = v[key];
    }
    return ok(v === undefined ? null : v);
  };
}
