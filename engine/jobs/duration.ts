/** ISO 8601 durations (PnYnMnWnDTnHnMnS) applied to a date, calendar-aware for years and months. */
const RE =
  /^(-)?P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/;

export interface IsoDuration {
  years: number;
  months: number;
  ms: number;
}

/** Parses an ISO 8601 duration, or returns null when the text is not one. */
export function parseDuration(text: string): IsoDuration | null {
  const m = RE.exec(text.trim());
  if (!m || text.trim() === "P" || text.trim().endsWith("T")) return null;
  const n = (i: number) => (m[i] ? Number(m[i]) : 0);
  const sign = m[1] ? -1 : 1;
  const ms = ((n(4) * 7 + n(5)) * 86_400_000 + n(6) * 3_600_000 + n(7) * 60_000 + n(8) * 1000) * sign;
  return { years: n(2) * sign, months: n(3) * sign, ms };
}

/** Adds a parsed duration to an epoch-ms instant. */
export function addDuration(at: number, d: IsoDuration): number {
  let t = at;
  if (d.years || d.months) {
    const date = new Date(t);
    date.setUTCMonth(date.getUTCMonth() + d.months + d.years * 12);
    t = date.getTime();
  }
  return t + d.ms;
}
