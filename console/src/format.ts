import { locale } from "./i18n";

// One shared formatter per language: `toLocaleString()` builds a new one per call, which costs a lot over a 1,000-row
// inbox.
const FORMATS = new Map<string, Intl.DateTimeFormat>();

export function when(iso: string): string {
  const loc = locale();
  let f = FORMATS.get(loc);
  if (!f) FORMATS.set(loc, (f = new Intl.DateTimeFormat(loc, { dateStyle: "short", timeStyle: "short" })));
  return f.format(new Date(iso));
}
