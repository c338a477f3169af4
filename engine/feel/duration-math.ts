import { duration, FeelDuration } from "feelin";

export const isDuration = (v: unknown): v is FeelDuration => v instanceof FeelDuration;
import { Decimal } from "./decimal";

// Durations scaled by numbers and divided by each other (DMN 1.5 §10.3.2.3.7 table 57), which feelin answers null.
// A years-and-months duration is counted in months (whole months kept), a days-and-time one in seconds.

/** A duration's size: months for a years-and-months one, seconds for a days-and-time one. */
export const durationSize = (d: FeelDuration): Decimal => {
  const v = d.value;
  if (d.yearsMonths) return new Decimal(v.years).times(12).plus(v.months);
  return new Decimal(v.days)
    .times(86400)
    .plus(v.hours * 3600 + v.minutes * 60 + v.seconds)
    .plus(new Decimal(v.milliseconds).div(1e3))
    .plus(new Decimal(v.microseconds).div(1e6))
    .plus(new Decimal(v.nanoseconds).div(1e9));
};

/** The days-and-time duration of `seconds` (decimal, sign included). */
export function secondsDuration(seconds: Decimal): FeelDuration | null {
  return sized(DT_ZERO, seconds);
}

/** A duration of the kind of `like` with the given size (months or seconds). */
function sized(like: FeelDuration, n: Decimal): FeelDuration | null {
  const sign = n.isNeg() ? "-" : "";
  const a = n.abs();
  if (like.yearsMonths) {
    const months = a.trunc().toNumber();
    return duration(`${sign}P${Math.floor(months / 12)}Y${months % 12}M`);
  }
  const days = a.div(86400).floor();
  const rest = a.minus(days.times(86400));
  return duration(`${sign}P${days.toFixed()}DT${rest.toDecimalPlaces(9).toFixed()}S`);
}

const DT_ZERO = duration("PT0S") as FeelDuration;

const asDecimal = (v: unknown): Decimal | undefined =>
  v instanceof Decimal ? v : typeof v === "number" && Number.isFinite(v) ? new Decimal(v) : undefined;

/** The result of `a op b` when a duration meets a number or a duration is divided; undefined when not such a case. */
export function durationArithmetic(op: string, a: unknown, b: unknown): unknown {
  const left = isDuration(a) ? a : undefined;
  const right = isDuration(b) ? b : undefined;
  if (!left && !right) return undefined;
  if (op === "/" && left && right) {
    if (left.yearsMonths !== right.yearsMonths) return null;
    const d = durationSize(right);
    return d.isZero() ? null : durationSize(left).div(d);
  }
  if (left && right) {
    // + and - of two durations of one kind, by size (feelin's was right, but the expression may hold a date-time
    // difference that only this side of the evaluation computes correctly); of two kinds, no answer
    if (op !== "+" && op !== "-") return undefined;
    if (left.yearsMonths !== right.yearsMonths) return null;
    const r = durationSize(right);
    return sized(left, op === "+" ? durationSize(left).plus(r) : durationSize(left).minus(r));
  }
  const n = asDecimal(left ? b : a);
  if (n === undefined) return undefined;
  const d = (left ?? right) as FeelDuration;
  if (op === "*") return sized(d, durationSize(d).times(n));
  if (op === "/" && left) return n.isZero() ? null : sized(d, durationSize(d).div(n));
  return undefined;
}
