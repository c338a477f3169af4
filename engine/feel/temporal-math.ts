import { FeelDate, FeelDateTime, FeelDuration, FeelTime } from "feelin";
import { Decimal } from "./decimal";
import { secondsDuration } from "./duration-math";

// Date and time arithmetic where feelin departs from DMN 1.5 (§10.3.2.3.7 tables 57-58, as the TCK reads them):
// - a date takes part as its midnight UTC; date ± days-and-time duration stays a date;
// - subtracting date-times compares instants: both zoned (a date counts as zoned) by their instants, both local by
//   their wall clocks, one of each has no answer (null); feelin drops the zones;
// - a time never meets a date, a date-time or a years-and-months duration (null).
// Any other combination is left to feelin (undefined).

type Instant = { zoned: true; ns: bigint } | { zoned: false; ns: bigint };

const FIXED_OFFSET = /^([+-])(\d{2}):(\d{2})(?::(\d{2}))?$/;

function instantOf(v: FeelDate | FeelDateTime): Instant | null {
  try {
    if (v instanceof FeelDate) return { zoned: true, ns: v.unwrap().toZonedDateTime("UTC").epochNanoseconds };
    const local = v.unwrap().toZonedDateTime("UTC").epochNanoseconds;
    if (v.zone === null) return { zoned: false, ns: local };
    const m = FIXED_OFFSET.exec(v.zone);
    if (m) {
      const offset = (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * (m[1] === "-" ? -1 : 1);
      return { zoned: true, ns: local - BigInt(offset) * 1_000_000_000n };
    }
    return { zoned: true, ns: v.unwrap().toZonedDateTime(v.zone).epochNanoseconds };
  } catch {
    return null;
  }
}

const dated = (v: unknown): v is FeelDate | FeelDateTime => v instanceof FeelDate || v instanceof FeelDateTime;

function difference(a: FeelDate | FeelDateTime, b: FeelDate | FeelDateTime): FeelDuration | null {
  const x = instantOf(a);
  const y = instantOf(b);
  if (!x || !y || x.zoned !== y.zoned) return null;
  return secondsDuration(new Decimal((x.ns - y.ns).toString()).div(1e9));
}

/** A date moved by a days-and-time duration: its midnight UTC moved, then the date of that. */
function shiftDate(d: FeelDate, dur: FeelDuration, sign: number): FeelDate {
  const moved = d
    .unwrap()
    .toPlainDateTime()
    .add(sign < 0 ? dur.unwrap().negated() : dur.unwrap());
  return new FeelDate(moved.toPlainDate());
}

/** `a op b` for dates, times and durations where DMN and feelin differ; undefined where feelin's answer stands. */
export function temporalArithmetic(op: string, a: unknown, b: unknown): unknown {
  if (op !== "+" && op !== "-") return undefined;
  const aTime = a instanceof FeelTime;
  const bTime = b instanceof FeelTime;
  if ((aTime && dated(b)) || (bTime && dated(a))) return null;
  const ym = (v: unknown) => v instanceof FeelDuration && v.yearsMonths;
  if ((aTime && ym(b)) || (bTime && ym(a) && op === "+")) return null;
  if (op === "-" && dated(a) && dated(b)) return difference(a, b);
  const dt = (v: unknown): v is FeelDuration => v instanceof FeelDuration && !v.yearsMonths;
  if (a instanceof FeelDate && dt(b)) return shiftDate(a, b, op === "-" ? -1 : 1);
  if (op === "+" && dt(a) && b instanceof FeelDate) return shiftDate(b, a, 1);
  return undefined;
}
