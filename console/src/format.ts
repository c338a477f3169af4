/** One shared formatter: `toLocaleString()` builds a new one per call, which costs a lot over a 1,000-row inbox. */
const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "short" });

export const when = (iso: string) => FORMAT.format(new Date(iso));
