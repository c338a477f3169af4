import type { Vars } from "../types";
import { checkSyntax, feelinEvaluate } from "./feelin-call";
import { readLiteral, scan } from "./scan";
import { isContextValue } from "./values";

/** A compiled FEEL expression. */
export type CompiledFeel = (vars: Vars) => unknown;

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

/**
 * Compile a FEEL expression once: literals become constants and dotted names direct lookups;
 * the rest is syntax-checked now and evaluated by feelin.
 */
export function compileExpression(text: string | undefined, scope: readonly string[], element: string): CompiledFeel {
  const src = (text ?? "").trim();
  if (src === "") return () => null;
  const fast = compileFast(src);
  if (fast) return fast;
  checkSyntax(src, "expression", scope, element);
  return (vars) => feelinEvaluate(src, vars);
}

function compileFast(src: string): CompiledFeel | undefined {
  const tokens = scan(src);
  if (!tokens || tokens.length === 0) return undefined;
  const lit = readLiteral(tokens, 0);
  if (lit && lit.next === tokens.length) {
    const value = lit.lit.value;
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
    return v === undefined ? null : v;
  };
}
