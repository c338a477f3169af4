import { evaluate, FeelDate, FeelDateTime, FeelFunction, FeelTime } from "feelin";
import { hasExtendedYear, parseFeelDate, parseFeelDateTime } from "./temporal-parse";

// date() and date and time() that read the full FEEL year range (temporal-parse.ts); handed to feelin by
// builtin-scope.ts for texts that may pass them such a string. Every other call keeps feelin's behaviour.

// feelin's own date(): `date` on its own evaluates to the built-in.
const feelinDate = evaluate("date").value as (...args: unknown[]) => unknown;

function date(year: unknown, month: unknown, day: unknown, from: unknown) {
  const text = typeof year === "string" && month == null && day == null ? year : from;
  if (typeof text === "string" && hasExtendedYear(text)) return parseFeelDate(text);
  return feelinDate(year, month, day, from);
}

function dateAndTime(d: unknown, time: unknown, from: unknown) {
  if (from != null) return typeof from === "string" && d == null && time == null ? parseFeelDateTime(from) : null;
  if (typeof d === "string") return time == null ? parseFeelDateTime(d) : null;
  if ((d instanceof FeelDate || d instanceof FeelDateTime) && time instanceof FeelTime) {
    const day = d instanceof FeelDate ? d.unwrap() : d.unwrap().toPlainDate();
    return new FeelDateTime(day.toPlainDateTime(time.unwrap()), time.zone);
  }
  return null;
}

// feelin's own duration(): the built-in's value.
const feelinDuration = evaluate("duration").value as (...args: unknown[]) => unknown;
// XML Schema writes seconds with a decimal point and digits on either side only (`PT0.S`, `PT.5S`), which feelin's
// pattern refuses: they are written out in full first.
const BARE_POINT = /(\d)\.S$|T\.(\d)/;

function durationOf(from: unknown) {
  const text =
    typeof from === "string" && BARE_POINT.test(from)
      ? from.replace(/(\d)\.S$/, "$1S").replace(/T\.(\d)/, "T0.$1")
      : from;
  return feelinDuration(text);
}

// feelin's own time(): the built-in's value.
const feelinTime = evaluate("time").value as (...args: unknown[]) => unknown;
// A time as XML Schema writes it (two-digit fields, a fraction, then Z, an offset up to ±18:00, or FEEL's @zone);
// feelin also read date-times ("2017-08-10T10:20:00"), offsets to ±23:59, and an offset followed by a zone.
const TIME_TEXT = /^\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-](?:(?:0\d|1[0-7]):[0-5]\d|18:00)|@[^@\s]+)?$/;

function time(hour: unknown, minute: unknown, second: unknown, offset: unknown, from: unknown) {
  const text = typeof hour === "string" && minute == null && second == null && offset == null ? hour : from;
  if (typeof text === "string" && !TIME_TEXT.test(text)) return null;
  // the time of a date has no answer (the TCK's 1116); a date and time has its own
  if (hour instanceof FeelDate || from instanceof FeelDate) return null;
  // feelin drops a fraction of the second (time(12, 59, 1.3) was 12:59:01): added back in nanoseconds
  if (typeof second === "number" && Number.isFinite(second) && !Number.isInteger(second)) {
    const whole = Math.floor(second);
    const t = feelinTime(hour, minute, whole, offset, from);
    if (!(t instanceof FeelTime)) return t;
    return new FeelTime(t.unwrap().add({ nanoseconds: Math.round((second - whole) * 1e9) }), t.zone);
  }
  return feelinTime(hour, minute, second, offset, from);
}

export const TEMPORAL_FUNCTIONS: Record<string, FeelFunction> = {
  date: new FeelFunction(date, ["year", "month", "day", "from"]),
  "date and time": new FeelFunction(dateAndTime, ["date", "time", "from"]),
  duration: new FeelFunction(durationOf, ["from"]),
  time: new FeelFunction(time, ["hour", "minute", "second", "offset", "from"]),
};
