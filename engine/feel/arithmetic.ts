import { parseExpression } from "feelin";
import { durationArithmetic, isDuration } from "./duration-math";
import { arithmetic, compare, Decimal, NUMERIC_FUNCTIONS } from "./decimal";
import { feelEquality } from "./equality";
import { feelinEvaluate } from "./feelin-call";
import { temporalArithmetic } from "./temporal-math";
import { type FeelError, type FeelResult, ok } from "./result";

// Arithmetic in decimals (DMN 1.5 §10.3.2.3.1). feelin computes with doubles (0.1 + 0.2 = 0.30000000000000004), so
// expressions whose top is arithmetic, a numeric comparison or a numeric built-in are evaluated here on decimal.js:
// operators, numeric literals, names and the numeric built-ins are ours, any other sub-expression is handed to feelin
// as its own text. When an operand turns out not to be a number (dates, durations, strings), that one operation goes
// to feelin with the operand values computed here (which knows those types; a date-time difference computed below it
// stays ours): the answer is always FEEL's, only the digits get better.

type Vars = Record<string, unknown>;
type Node = NonNullable<ReturnType<typeof parseExpression>["topNode"]["firstChild"]>;
type Eval = (vars: Vars) => unknown;

/** Thrown when an operand is not a number: the expression is not numeric after all. */
const NOT_NUMERIC = Symbol("not numeric");
/** Thrown with the error of a sub-expression feelin could not evaluate. */
class SubFailure {
  constructor(readonly error: FeelError) {}
}

// Operands that make an operator not a numeric one: the expression goes to feelin whole.
const NON_NUMERIC = new Set(["StringLiteral", "BooleanLiteral", "nil", "List", "Context", "Interval"]);

// Expressions whose value is the number (or comparison) computed here; any other top goes to feelin whole.
const ROOTS = new Set([
  "ArithmeticExpression",
  "Comparison",
  "FunctionInvocation",
  "ParenthesizedExpression",
  "NumericLiteral",
]);

const children = (n: Node): Node[] => {
  const out: Node[] = [];
  for (let c = n.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
};

const toDecimal = (v: unknown): Decimal | null => {
  if (v instanceof Decimal || v === null) return v;
  if (v === undefined) return null;
  if (typeof v === "number") return Number.isFinite(v) ? new Decimal(v) : null;
  throw NOT_NUMERIC;
};

/** The expression compiled to run on decimals, or undefined when it is not an arithmetic one. */
export function compileArithmetic(
  src: string,
  names: readonly string[],
): ((vars: Vars) => FeelResult<unknown>) | undefined {
  const ctx: Record<string, null> = {};
  for (const n of names) ctx[n] = null;
  const root = parseExpression(src, ctx, undefined).topNode.firstChild;
  if (!root || root.nextSibling || !ROOTS.has(root.name)) return undefined;
  let numeric = false;
  root.toTree().iterate({
    enter(n) {
      if (n.name === "ArithOp") numeric = true;
    },
  });
  if (!numeric) return undefined;
  const text = (n: Node) => src.slice(n.from, n.to);
  // Durations scale by numbers (duration-math.ts); dates and times meet durations and each other (temporal-math.ts).
  const notNumeric = (o: Node) => NON_NUMERIC.has(o.name);
  const delegate = (n: Node): Eval => {
    const sub = text(n);
    return (vars) => {
      const r = feelinEvaluate(sub, vars);
      if (!r.ok) throw new SubFailure(r.error);
      return r.value;
    };
  };
  const build = (n: Node): Eval => {
    const c = children(n);
    switch (n.name) {
      case "NumericLiteral": {
        const d = new Decimal(text(n).replace(/\s+/g, ""));
        return () => d;
      }
      case "ParenthesizedExpression":
        return build(c[1]);
      case "VariableName": {
        const name = text(n).replace(/\s+/g, " ");
        const slow = delegate(n);
        return (vars) => (Object.hasOwn(vars, name) ? vars[name] : slow(vars));
      }
      case "ArithmeticExpression":
        if (c.some(notNumeric)) throw NOT_NUMERIC;
        return c.length === 2 ? negation(build(c[1])) : binary(c[1], build(c[0]), build(c[2]));
      case "Comparison":
        if (c.some(notNumeric)) throw NOT_NUMERIC;
        return c.length === 3 && c[1].name === "CompareOp"
          ? comparison(text(c[1]), build(c[0]), build(c[2]))
          : delegate(n);
      case "FunctionInvocation":
        return numericCall(n, c, build) ?? delegate(n);
      default:
        return delegate(n);
    }
  };
  const binary = (opNode: Node, left: Eval, right: Eval): Eval => {
    const op = text(opNode);
    return (vars) => {
      const av = left(vars);
      const bv = right(vars);
      const scaled = durationArithmetic(op, av, bv);
      if (scaled !== undefined) return scaled;
      const moved = temporalArithmetic(op, av, bv);
      if (moved !== undefined) return moved;
      const a = asNumber(av);
      const b = asNumber(bv);
      if (a === NOT_NUMERIC || b === NOT_NUMERIC) return feelinOp(`a ${op} b`, { a: toJs(av), b: toJs(bv) });
      return a === null || b === null ? null : arithmetic(op, a, b);
    };
  };
  const numericCall = (n: Node, c: Node[], b: (n: Node) => Eval): Eval | undefined => {
    const name = text(c[0]).replace(/\s+/g, " ");
    const def = NUMERIC_FUNCTIONS[name];
    const params = c[2];
    if (!def || c[0].name !== "VariableName" || params?.name !== "PositionalParameters") return undefined;
    const args = children(params)
      .filter((p) => p.name !== ",")
      .map(b);
    if (args.length < def.arity[0] || args.length > def.arity[1]) return undefined;
    const shadowed = delegate(n);
    return (vars) => {
      if (Object.hasOwn(vars, name)) return shadowed(vars);
      const raw = args.map((a) => a(vars));
      const values = raw.map(asNumber);
      if (values.includes(NOT_NUMERIC)) {
        // an argument of another type (a duration, a string): the built-in as feelin has it, on the values computed here
        const names = raw.map((_, i) => `a${i}`);
        return feelinOp(`${name}(${names.join(", ")})`, Object.fromEntries(raw.map((v, i) => [names[i], toJs(v)])));
      }
      return values.includes(null) ? null : def.fn(...(values as Decimal[]));
    };
  };
  let top: Eval;
  try {
    top = build(root);
  } catch (e) {
    if (e === NOT_NUMERIC) return undefined;
    throw e;
  }
  return (vars) => {
    try {
      return ok(toJs(top(vars)));
    } catch (e) {
      if (e === NOT_NUMERIC) return feelinEvaluate(src, vars);
      if (e instanceof SubFailure) return { ok: false, error: e.error };
      throw e;
    }
  };
}

function negation(operand: Eval): Eval {
  return (vars) => {
    const v = operand(vars);
    if (isDuration(v)) return durationArithmetic("*", v, -1);
    const d = asNumber(v);
    return d === NOT_NUMERIC ? feelinOp("-a", { a: toJs(v) }) : (d?.neg() ?? null);
  };
}

function comparison(op: string, left: Eval, right: Eval): Eval {
  return (vars) => {
    const av = left(vars);
    const bv = right(vars);
    const a = asNumber(av);
    const b = asNumber(bv);
    if (a === NOT_NUMERIC || b === NOT_NUMERIC) {
      // other types compared: FEEL's equality and ordering, on the values computed here
      const x = toJs(av);
      const y = toJs(bv);
      if (op !== "=" && op !== "!=") return feelinOp(`a ${op} b`, { a: x, b: y });
      const eq = feelEquality(x, y);
      return op === "=" || eq === null ? eq : !eq;
    }
    if (a === null || b === null) {
      // FEEL: null equals only null; ordering with null has no answer.
      if (op === "=") return a === b;
      if (op === "!=") return a !== b;
      return null;
    }
    return compare(op, a, b);
  };
}

/** A number as a decimal, null for null, NOT_NUMERIC for any other value. */
function asNumber(v: unknown): Decimal | null | typeof NOT_NUMERIC {
  try {
    return toDecimal(v);
  } catch (e) {
    if (e === NOT_NUMERIC) return NOT_NUMERIC;
    throw e;
  }
}

/** One operation evaluated by feelin on values computed here (a date-time difference stays ours). */
function feelinOp(text: string, vars: Vars): unknown {
  const r = feelinEvaluate(text, vars);
  if (!r.ok) throw new SubFailure(r.error);
  return r.value;
}

/** Decimals leave as JavaScript numbers (the nearest double), everything else as it is. */
function toJs(v: unknown): unknown {
  if (v instanceof Decimal) {
    const n = v.toNumber();
    return n === 0 ? 0 : n;
  }
  return v;
}
