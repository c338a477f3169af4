import { builtinScope } from "./builtin-scope";
import { boundedCache } from "./cache";
import { feelSourceText } from "./source-text";
import { compileExpressionTests } from "./expression-tests";
import { feelinUnaryTest, syntaxError } from "./feelin-call";
import { type FeelResult, fail, ok } from "./result";
import { readLiteral, scan, type Token } from "./scan";

type Vars = Record<string, unknown>;

/** Compiled unary tests: whether `input` passes, or the error; never throws on data. */
export type CompiledUnaryTests = (input: unknown, vars: Vars) => FeelResult<boolean>;

type Prim = number | string | boolean | null;
/** true, false, or null when input and endpoint cannot be compared (FEEL's third truth value). */
type Positive = (input: Prim) => boolean | null;

const TRUE = ok(true);
const FALSE = ok(false);
const ANY: CompiledUnaryTests = () => TRUE;
const cache = boundedCache<FeelResult<CompiledUnaryTests>>(10_000);

/**
 * Compile FEEL unary tests once (cached by text and names). Literals, comparisons, intervals, lists of them and
 * not(...) become plain closures (microseconds per table); everything else is checked now and evaluated by feelin.
 */
export function compileUnaryTests(
  text: string | undefined,
  names: readonly string[] = [],
): FeelResult<CompiledUnaryTests> {
  const raw = (text ?? "").trim();
  return cache.getOrCreate(`u\u0000${names.join("\u0001")}\u0000${raw}`, () => {
    const src = feelSourceText(raw).trim();
    if (src === "" || src === "-") return ok(ANY);
    const fast = compileFast(src);
    if (fast) return ok(fast);
    const error = syntaxError(src, "unaryTests", names);
    if (error) return fail(error);
    const scope = builtinScope(src);
    const expressions = compileExpressionTests(src, names);
    if (expressions) return ok((input: unknown, vars: Vars) => expressions(input, vars, scope));
    if (scope) return ok((input: unknown, vars: Vars) => feelinUnaryTest(src, input, scope(vars)));
    return ok((input: unknown, vars: Vars) => feelinUnaryTest(src, input, vars));
  });
}

function compileFast(src: string): CompiledUnaryTests | undefined {
  const tokens = scan(src);
  if (!tokens) return undefined;
  const negated = isOp(tokens[0], "not") && isOp(tokens[1], "(") && isOp(tokens[tokens.length - 1], ")");
  const body = negated ? tokens.slice(2, -1) : tokens;
  const tests: Positive[] = [];
  let pos = 0;
  while (pos < body.length) {
    const r = readPositive(body, pos);
    if (!r) return undefined;
    tests.push(r.test);
    pos = r.next;
    if (pos < body.length) {
      if (!isOp(body[pos], ",")) return undefined;
      pos++;
      if (pos === body.length) return undefined;
    }
  }
  if (tests.length === 0) return undefined;
  const any = tests.length === 1 ? tests[0] : disjunction(tests);
  // Lists, contexts and temporals as inputs have membership and comparison rules of their own: feelin decides.
  const slow = (input: unknown, vars: Vars) => feelinUnaryTest(src, input, vars);
  if (negated)
    return (input, vars) => (isPrim(input) ? (any(input ?? null) === false ? TRUE : FALSE) : slow(input, vars));
  return (input, vars) => (isPrim(input) ? (any(input ?? null) === true ? TRUE : FALSE) : slow(input, vars));
}

function disjunction(tests: Positive[]): Positive {
  return (input) => {
    let sawNull = false;
    for (const t of tests) {
      const r = t(input);
      if (r === true) return true;
      if (r === null) sawNull = true;
    }
    return sawNull ? null : false;
  };
}

function isPrim(v: unknown): v is Prim {
  return v === null || v === undefined || typeof v === "number" || typeof v === "string" || typeof v === "boolean";
}

function isOp(tok: Token | undefined, v: string): boolean {
  return !!tok && (tok.t === "op" || tok.t === "name") && tok.v === v;
}

function readPositive(tokens: Token[], pos: number): { test: Positive; next: number } | undefined {
  const tok = tokens[pos];
  if (!tok) return undefined;
  if (tok.t === "op" && ["<", "<=", ">", ">="].includes(tok.v)) {
    const r = readLiteral(tokens, pos + 1);
    if (!r || !comparable(r.lit.value)) return undefined;
    return { test: compare(tok.v, r.lit.value as number | string), next: r.next };
  }
  if (tok.t === "op" && ["[", "(", "]"].includes(tok.v)) return readInterval(tokens, pos);
  const r = readLiteral(tokens, pos);
  if (!r) return undefined;
  const value = r.lit.value;
  return { test: equalTo(value), next: r.next };
}

function readInterval(tokens: Token[], pos: number): { test: Positive; next: number } | undefined {
  const startIncluded = tokens[pos].v === "[";
  const lo = readLiteral(tokens, pos + 1);
  if (!lo || !isOp(tokens[lo.next], "..")) return undefined;
  const hi = readLiteral(tokens, lo.next + 1);
  const close = hi && tokens[hi.next];
  if (!hi || !close || close.t !== "op" || !["]", ")", "["].includes(close.v)) return undefined;
  const a = lo.lit.value;
  const b = hi.lit.value;
  if (!comparable(a) || typeof a !== typeof b) return undefined;
  const endIncluded = close.v === "]";
  const kind = typeof a;
  const test: Positive = (input) => {
    if (typeof input !== kind) return null;
    const v = input as number | string;
    const aboveLo = startIncluded ? v >= (a as typeof v) : v > (a as typeof v);
    const belowHi = endIncluded ? v <= (b as typeof v) : v < (b as typeof v);
    return aboveLo && belowHi;
  };
  return { test, next: hi.next + 1 };
}

function comparable(v: Prim): v is number | string {
  return typeof v === "number" || typeof v === "string";
}

function compare(op: string, bound: number | string): Positive {
  const kind = typeof bound;
  switch (op) {
    case "<":
      return (v) => (typeof v === kind ? (v as typeof bound) < bound : null);
    case "<=":
      return (v) => (typeof v === kind ? (v as typeof bound) <= bound : null);
    case ">":
      return (v) => (typeof v === kind ? (v as typeof bound) > bound : null);
    default:
      return (v) => (typeof v === kind ? (v as typeof bound) >= bound : null);
  }
}

function equalTo(value: Prim): Positive {
  if (value === null) return (v) => v === null || v === undefined;
  const kind = typeof value;
  return (v) => (v === null || v === undefined ? false : typeof v === kind ? v === value : null);
}
