import DecimalJs from "decimal.js";

// FEEL numbers are decimal128 (DMN 1.5 §10.3.2.3.1): 34 significant digits, rounded half-even. Arithmetic inside one
// expression runs on these; values leave engine/feel as JavaScript numbers (BPMN, CMMN and forms read plain JSON).
export const Decimal = DecimalJs.clone({
  precision: 34,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  toExpNeg: -40,
  toExpPos: 40,
});
export type Decimal = InstanceType<typeof Decimal>;

type Num = Decimal | null;

/** The FEEL arithmetic operators on decimals; null in, or division by zero, gives null. */
export function arithmetic(op: string, a: Decimal, b: Decimal): Num {
  switch (op) {
    case "+":
      return a.plus(b);
    case "-":
      return a.minus(b);
    case "*":
      return a.times(b);
    case "/":
      return b.isZero() ? null : a.div(b);
    default: {
      // ** and ^: an integer exponent is exact; a fractional one is computed to 34 digits.
      const r = a.pow(b);
      return r.isFinite() ? r : null;
    }
  }
}

/** FEEL comparison of two decimals. */
export function compare(op: string, a: Decimal, b: Decimal): boolean {
  const c = a.comparedTo(b);
  switch (op) {
    case "=":
      return c === 0;
    case "!=":
      return c !== 0;
    case "<":
      return c < 0;
    case "<=":
      return c <= 0;
    case ">":
      return c > 0;
    default:
      return c >= 0;
  }
}

const scaled = (rounding: DecimalJs.Rounding) => (n: Decimal, scale?: Decimal) => {
  const s = scale ?? new Decimal(0);
  if (!s.isInteger() || s.lt(-6111) || s.gt(6176)) return null;
  if (s.gte(0)) return n.toDecimalPlaces(s.toNumber(), rounding);
  // A negative scale rounds to tens, hundreds...: round n / 10^-scale to an integer and scale back.
  const unit = new Decimal(10).pow(s.neg());
  return n.div(unit).toDecimalPlaces(0, rounding).times(unit);
};

/** The numeric built-ins of FEEL (§10.3.4.5) computed on decimals, by name; each takes positional decimals. */
export const NUMERIC_FUNCTIONS: Record<string, { arity: [number, number]; fn: (...a: Decimal[]) => Num | string }> = {
  // string() of a computed number shows its decimal digits (string(1/3) has 34 of them).
  string: { arity: [1, 1], fn: (n) => n.toString() },
  decimal: { arity: [2, 2], fn: scaled(Decimal.ROUND_HALF_EVEN) },
  floor: { arity: [1, 2], fn: scaled(Decimal.ROUND_FLOOR) },
  ceiling: { arity: [1, 2], fn: scaled(Decimal.ROUND_CEIL) },
  "round up": { arity: [2, 2], fn: scaled(Decimal.ROUND_UP) },
  "round down": { arity: [2, 2], fn: scaled(Decimal.ROUND_DOWN) },
  "round half up": { arity: [2, 2], fn: scaled(Decimal.ROUND_HALF_UP) },
  "round half down": { arity: [2, 2], fn: scaled(Decimal.ROUND_HALF_DOWN) },
  abs: { arity: [1, 1], fn: (n) => n.abs() },
  // modulo(dividend, divisor) = dividend - divisor * floor(dividend / divisor): the sign of the divisor.
  modulo: { arity: [2, 2], fn: (a, b) => (b.isZero() ? null : a.minus(b.times(a.div(b).floor()))) },
  sqrt: { arity: [1, 1], fn: (n) => (n.isNeg() ? null : n.sqrt()) },
  exp: { arity: [1, 1], fn: (n) => n.exp() },
  log: { arity: [1, 1], fn: (n) => (n.lte(0) ? null : n.ln()) },
};
