/**
 * The console's languages. Every string a person reads is written in English in the source and passed through `t`;
 * another language is a catalog from that English to its own words (`locales/<lang>/`), loaded as a lazy chunk only
 * by those who choose it, so the first load of an English console carries no translations.
 */
export type Lang = "en" | "pt-BR";
export const LANGS: { code: Lang; label: string }[] = [
  { code: "en", label: "English" },
  { code: "pt-BR", label: "Português (Brasil)" },
];
const STORE_KEY = "console.lang";

let current: Lang = "en";
let catalog: Record<string, string> = {};
const listeners = new Set<() => void>();

/** The English text in the current language; `{name}` placeholders are filled from `vars`. */
export function t(english: string, vars?: Record<string, string | number>): string {
  const text = catalog[english] ?? english;
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** A count with its noun, from the English for one and for many (each with `{n}`) (Portuguese, like English, has one form for 1). */
export function plural(n: number, one: string, many: string): string {
  return t(n === 1 ? one : many, { n: n.toLocaleString(locale()) });
}

export const lang = (): Lang => current;
/** The locale for dates and numbers: the chosen language. */
export const locale = (): string => current;

async function load(code: Lang): Promise<Record<string, string>> {
  if (code === "pt-BR") return (await import("./locales/pt-BR/index")).ptBR;
  return {};
}

function apply(code: Lang, words: Record<string, string>) {
  current = code;
  catalog = words;
  if (typeof document !== "undefined") document.documentElement.lang = code;
  for (const fn of listeners) fn();
}

/** Switches the console's language and remembers the choice in this browser. */
export async function setLang(code: Lang): Promise<void> {
  const words = await load(code);
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // A browser that refuses storage still switches for this visit.
  }
  apply(code, words);
}

/** The language at start: the one chosen before in this browser, else the browser's first that the console speaks. */
export function preferredLang(stored: string | null, browser: readonly string[]): Lang {
  if (stored === "en" || stored === "pt-BR") return stored;
  for (const l of browser) {
    const base = l.toLowerCase();
    if (base.startsWith("pt")) return "pt-BR";
    if (base.startsWith("en")) return "en";
  }
  return "en";
}

/** Loads the preferred language before the first render (no English flash for a Portuguese reader). */
export async function initLang(): Promise<void> {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch {
    stored = null;
  }
  const code = preferredLang(stored, navigator.languages ?? [navigator.language]);
  if (code !== "en") apply(code, await load(code));
}

export function onLangChange(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
