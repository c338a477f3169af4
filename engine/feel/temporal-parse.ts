import { FeelDate, FeelDateTime, FeelTime, parseDate, parseDateTime } from "feelin";

// Dates with the full FEEL year range (DMN 1.5 §10.3.4.1: years -999,999,999..999,999,999, written with an optional
// minus and at least four digits, e.g. "-2017-12-31", "99999-12-31"). feelin refuses a leading minus outright ("not
// implemented") and hands longer years to Temporal, whose ISO form wants "+099999". Within Temporal's range (about
// ±271,000 years) such dates are built here from their fields; beyond it they are null, as an invalid date is.

const EXTENDED_DATE = /^(-?)(\d{4,9})-(\d{2})-(\d{2})$/;
// A four-digit year without sign is what feelin parses itself.
const PLAIN_YEAR = /^\d{4}-/;
const ANCHOR = parseDate("2000-01-01") as FeelDate;

function extendedDate(text: string) {
  const m = EXTENDED_DATE.exec(text);
  if (!m || (m[1] === "" && m[2].length === 4) || (m[2].length > 4 && m[2].startsWith("0"))) return null;
  try {
    const fields = { year: Number(m[1] + m[2]), month: Number(m[3]), day: Number(m[4]) };
    return ANCHOR.unwrap().with(fields, { overflow: "reject" });
  } catch {
    return null;
  }
}

/** A FEEL date from its string form ("2017-12-31", "-2017-12-31", "99999-12-31"), or null when it is not one. */
export function parseFeelDate(text: string): FeelDate | null {
  if (PLAIN_YEAR.test(text)) return parseDate(text);
  const d = extendedDate(text);
  return d ? new FeelDate(d) : null;
}

// 24:00:00 ends a day (XML Schema dateTime): it is the next day's midnight, which feelin refuses.
const END_OF_DAY = /T24:00:00(?:\.0+)?(?=$|[Z@+-])/;

/** A FEEL date and time from its string form, years as in parseFeelDate; null when it is not one. */
export function parseFeelDateTime(text: string): FeelDateTime | null {
  if (END_OF_DAY.test(text)) {
    const midnight = parseFeelDateTime(text.replace(END_OF_DAY, "T00:00:00"));
    return midnight && new FeelDateTime(midnight.unwrap().add({ days: 1 }), midnight.zone);
  }
  if (PLAIN_YEAR.test(text)) return parseDateTime(text);
  const t = text.indexOf("T");
  const datePart = t < 0 ? text : text.slice(0, t);
  const d = extendedDate(datePart);
  if (!d) return null;
  // The time of day and zone are read by feelin on an ordinary date, then moved to the real one.
  const rest = parseDateTime(`2000-01-01${t < 0 ? "" : text.slice(t)}`);
  if (!rest) return null;
  return new FeelDateTime(d.toPlainDateTime(rest.unwrap().toPlainTime()), rest.zone);
}

/** Whether a date string needs parseFeelDate (a signed or longer year), which feelin would refuse or misread. */
export const hasExtendedYear = (text: string) => /^(?:-\d|\d{5})/.test(text);
/** Whether a date-time string needs parseFeelDateTime rather than feelin's parser. */
export const needsOwnParse = (text: string) => hasExtendedYear(text) || END_OF_DAY.test(text);

// Temporal writes years outside 0..9999 as "-002017" / "+099999"; FEEL writes "-2017" / "99999". A zero offset
// (`+00:00`, `-00:00`) is UTC, written `Z` (as XML Schema's canonical form and the TCK have it; feelin kept the text).
// The canonical `iso` of feelin's temporals drives their string() and equality, so it is normalised where feelin's
// constructors set it: an accessor on the prototype receives their `this.iso = ...` (installed once per process; the
// library is unchanged).
const ISO_YEAR = /^([+-])0*(\d{4,})/;
const ZERO_OFFSET = /[+-]00:00(?::00)?$/;
const canonical = (v: string) => {
  const y = ISO_YEAR.test(v) ? v.replace(ISO_YEAR, (_, s: string, y: string) => (s === "-" ? `-${y}` : y)) : v;
  return ZERO_OFFSET.test(y) ? y.replace(ZERO_OFFSET, "Z") : y;
};
for (const cls of [FeelDate, FeelDateTime, FeelTime]) {
  Object.defineProperty(cls.prototype, "iso", {
    configurable: true,
    set(this: object, v: string) {
      // from then on an ordinary own property, as feelin's constructor would have made it
      Object.defineProperty(this, "iso", { value: canonical(v), writable: true, enumerable: true, configurable: true });
    },
  });
}
