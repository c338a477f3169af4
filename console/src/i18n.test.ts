import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { plural, preferredLang, t } from "./i18n";
import { translationKeys, untranslatedText } from "./i18n-scan";
import { AREAS, ptBR } from "./locales/pt-BR/index";

async function sources(): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for await (const file of new Glob("**/*.ts").scan(import.meta.dir)) {
    if (file.endsWith(".test.ts") || file.endsWith(".d.ts") || file.startsWith("locales/") || file === "i18n-scan.ts")
      continue;
    out.push([file, await Bun.file(`${import.meta.dir}/${file}`).text()]);
  }
  return out.sort(([a], [b]) => a.localeCompare(b));
}

describe("console languages", () => {
  test("the browser's language is chosen unless the reader chose before", () => {
    expect(preferredLang(null, ["pt-BR", "en"])).toBe("pt-BR");
    expect(preferredLang(null, ["pt-PT"])).toBe("pt-BR");
    expect(preferredLang(null, ["de-DE", "en-GB"])).toBe("en");
    expect(preferredLang(null, ["fr"])).toBe("en");
    expect(preferredLang("en", ["pt-BR"])).toBe("en");
    expect(preferredLang("xx", ["pt-BR"])).toBe("pt-BR");
  });

  test("English passes through with its placeholders filled", () => {
    expect(t("Started by {name}", { name: "Ana" })).toBe("Started by Ana");
    expect(t("{a} of {b}", { a: 1 })).toBe("1 of {b}");
    expect(plural(1, "{n} task", "{n} tasks")).toBe("1 task");
    expect(plural(1200, "{n} task", "{n} tasks")).toBe("1,200 tasks");
  });

  test("the scan finds text written into a template and not through t", () => {
    const src = 'html`<p title="Open it">Hello ${name}</p><${Btn} aria-label=${t("Go")}>${t("Go")}</${Btn}> · BPMN`';
    expect(untranslatedText(src)).toEqual(['title="Open it"', "Hello …"]);
    expect(translationKeys(`t("Go"); t('It\\'s'); plural(n, "{n} row", "{n} rows")`)).toEqual([
      "Go",
      "It's",
      "{n} row",
      "{n} rows",
    ]);
  });

  test("every template's text goes through t", async () => {
    const left: string[] = [];
    for (const [file, text] of await sources()) {
      for (const s of untranslatedText(text)) left.push(`${file}: ${s}`);
    }
    expect(left).toEqual([]);
  });

  test("every English text given to t has its Portuguese", async () => {
    const missing = new Set<string>();
    for (const [file, text] of await sources())
      for (const k of translationKeys(text)) if (!(k in ptBR)) missing.add(`${file}: ${k}`);
    expect([...missing]).toEqual([]);
  });

  test("the catalogs hold each text once, translated, with the same placeholders", () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const [area, words] of Object.entries(AREAS))
      for (const [en, pt] of Object.entries(words)) {
        if (seen.has(en)) twice.push(`${en} (${seen.get(en)} and ${area})`);
        seen.set(en, area);
        expect(pt.trim().length).toBeGreaterThan(0);
        const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        expect({ en, holes: holes(pt) }).toEqual({ en, holes: holes(en) });
      }
    expect(twice).toEqual([]);
  });
});
