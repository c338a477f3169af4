import { FeelFunction, FeelRange } from "feelin";
import { feelinEvaluate } from "./feelin-call";

// The interval functions (DMN 1.5 §10.3.4.9, table 78), on points and ranges of any
// comparable type. Comparisons follow FEEL (three-valued: an open endpoint or mismatched types give null, and null
// propagates through and/or as FEEL's do). Handed to feelin by builtin-scope.ts.

type B = boolean | null;
type Range = { s: unknown; e: unknown; si: boolean; ei: boolean };

const and = (...xs: B[]): B => (xs.includes(false) ? false : xs.includes(null) ? null : true);
const or = (...xs: B[]): B => (xs.includes(true) ? true : xs.includes(null) ? null : false);

function compare(op: "<" | "=", a: unknown, b: unknown): B {
  if (a === null || a === undefined || b === null || b === undefined) return null;
  if (typeof a === "number" && typeof b === "number") return op === "<" ? a < b : a === b;
  if (typeof a === "string" && typeof b === "string") return op === "<" ? a < b : a === b;
  if (typeof a === "boolean" && typeof b === "boolean") return op === "=" ? a === b : null;
  // values of different types have no order (feelin says false)
  if (typeof a !== typeof b || typeof a !== "object") return null;
  const r = feelinEvaluate(`a ${op} b`, { a, b });
  return r.ok && typeof r.value === "boolean" ? r.value : null;
}
const lt = (a: unknown, b: unknown) => compare("<", a, b);
const eq = (a: unknown, b: unknown) => compare("=", a, b);
const gt = (a: unknown, b: unknown) => compare("<", b, a);

const asRange = (v: unknown): Range | undefined =>
  v instanceof FeelRange ? { s: v.start, e: v.end, si: v["start included"], ei: v["end included"] } : undefined;
const isPoint = (v: unknown) => v !== null && v !== undefined && !(v instanceof FeelRange) && !Array.isArray(v);

/** A function of two arguments that answers per kind (point or range) of each; other arguments give null. */
function interval(
  names: string[],
  cases: {
    pp?: (a: unknown, b: unknown) => B;
    pr?: (p: unknown, r: Range) => B;
    rp?: (r: Range, p: unknown) => B;
    rr?: (a: Range, b: Range) => B;
  },
): FeelFunction {
  const fn = (...args: unknown[]) => {
    const given = args.filter((a) => a !== undefined);
    if (given.length !== 2) return null;
    const [x, y] = given;
    const rx = asRange(x);
    const ry = asRange(y);
    if (rx && ry) return cases.rr?.(rx, ry) ?? null;
    if (rx && isPoint(y)) return cases.rp?.(rx, y) ?? null;
    if (ry && isPoint(x)) return cases.pr?.(x, ry) ?? null;
    if (isPoint(x) && isPoint(y)) return cases.pp?.(x, y) ?? null;
    return null;
  };
  return new FeelFunction(fn, names);
}

const startsAt = (r: Range, p: unknown) => and(eq(r.s, p), r.si);
const endsAt = (r: Range, p: unknown) => and(eq(r.e, p), r.ei);

// a before b (rows a-d of table 78); `after` is the same with its arguments swapped
const pointBefore = (p: unknown, r: Range) => or(lt(p, r.s), and(eq(p, r.s), !r.si));
const beforePoint = (r: Range, p: unknown) => or(lt(r.e, p), and(eq(r.e, p), !r.ei));
const rangeBefore = (a: Range, b: Range) => or(lt(a.e, b.s), and(or(!a.ei, !b.si), eq(a.e, b.s)));
const includesPoint = (r: Range, p: unknown) => or(and(lt(r.s, p), lt(p, r.e)), startsAt(r, p), endsAt(r, p));
const includesRange = (a: Range, b: Range) =>
  and(or(lt(a.s, b.s), and(eq(a.s, b.s), or(a.si, !b.si))), or(gt(a.e, b.e), and(eq(a.e, b.e), or(a.ei, !b.ei))));

// feelin has before, after, meets, met by, overlaps and includes, but not their parameter names, and it answers
// points of different types or null (before(null, 1) is true there); these are the spec's.
export const INTERVAL_FUNCTIONS: Record<string, FeelFunction> = {
  before: interval(["point1", "point2", "point", "range", "range1", "range2"], {
    pp: lt,
    pr: pointBefore,
    rp: beforePoint,
    rr: rangeBefore,
  }),
  after: interval(["point1", "point2", "point", "range", "range1", "range2"], {
    pp: gt,
    pr: (p, r) => beforePoint(r, p),
    rp: (r, p) => pointBefore(p, r),
    rr: (a, b) => rangeBefore(b, a),
  }),
  meets: interval(["range1", "range2"], { rr: (a, b) => and(a.ei, b.si, eq(a.e, b.s)) }),
  "met by": interval(["range1", "range2"], { rr: (a, b) => and(a.si, b.ei, eq(a.s, b.e)) }),
  overlaps: interval(["range1", "range2"], {
    rr: (a, b) => and(or(gt(a.e, b.s), and(eq(a.e, b.s), a.ei, b.si)), or(lt(a.s, b.e), and(eq(a.s, b.e), a.si, b.ei))),
  }),
  includes: interval(["range", "point", "range1", "range2"], { rp: includesPoint, rr: includesRange }),
  "overlaps before": interval(["range1", "range2"], {
    rr: (a, b) =>
      and(
        or(lt(a.s, b.s), and(eq(a.s, b.s), a.si, !b.si)),
        or(gt(a.e, b.s), and(eq(a.e, b.s), a.ei, b.si)),
        or(lt(a.e, b.e), and(eq(a.e, b.e), or(!a.ei, b.ei))),
      ),
  }),
  "overlaps after": interval(["range1", "range2"], {
    rr: (a, b) =>
      and(
        or(lt(b.s, a.s), and(eq(b.s, a.s), b.si, !a.si)),
        or(gt(b.e, a.s), and(eq(b.e, a.s), b.ei, a.si)),
        or(lt(b.e, a.e), and(eq(b.e, a.e), or(!b.ei, a.ei))),
      ),
  }),
  finishes: interval(["point", "range", "range1", "range2"], {
    pr: (p, r) => endsAt(r, p),
    rr: (a, b) => and(a.ei === b.ei, eq(a.e, b.e), or(gt(a.s, b.s), and(eq(a.s, b.s), or(!a.si, b.si)))),
  }),
  "finished by": interval(["range", "point", "range1", "range2"], {
    rp: (r, p) => endsAt(r, p),
    rr: (a, b) => and(a.ei === b.ei, eq(a.e, b.e), or(lt(a.s, b.s), and(eq(a.s, b.s), or(a.si, !b.si)))),
  }),
  during: interval(["point", "range", "range1", "range2"], {
    pr: (p, r) => includesPoint(r, p),
    rr: (a, b) => includesRange(b, a),
  }),
  starts: interval(["point", "range", "range1", "range2"], {
    pr: (p, r) => startsAt(r, p),
    rr: (a, b) => and(eq(a.s, b.s), a.si === b.si, or(lt(a.e, b.e), and(eq(a.e, b.e), or(!a.ei, b.ei)))),
  }),
  "started by": interval(["range", "point", "range1", "range2"], {
    rp: (r, p) => startsAt(r, p),
    rr: (a, b) => and(eq(a.s, b.s), a.si === b.si, or(lt(b.e, a.e), and(eq(b.e, a.e), or(!b.ei, a.ei)))),
  }),
  coincides: interval(["point1", "point2", "range1", "range2"], {
    pp: (a, b) => eq(a, b),
    rr: (a, b) => and(eq(a.s, b.s), a.si === b.si, eq(a.e, b.e), a.ei === b.ei),
  }),
};
