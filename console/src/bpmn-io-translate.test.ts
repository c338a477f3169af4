import { describe, expect, test } from "bun:test";
import { Glob } from "bun";
import { join } from "node:path";
import { translator } from "./bpmn-io-translate";
import { bpmnDiagram } from "./locales/pt-BR/bpmn-io-diagram";
import { dmnEditor } from "./locales/pt-BR/bpmn-io-dmn";
import { bpmnPanel } from "./locales/pt-BR/bpmn-io-panel";

const MODULES = join(import.meta.dir, "../../node_modules");

/** The text of the libraries' sources whose English templates the catalogs translate. */
async function librarySources(patterns: string[]): Promise<string> {
  let all = "";
  // a template split over lines is written 'a ' + 'b' in the source: read it joined, as translate gets it
  for (const p of patterns)
    for await (const f of new Glob(p).scan({ cwd: MODULES, followSymlinks: true }))
      all += (await Bun.file(join(MODULES, f)).text()).replaceAll("' + '", "");
  return all;
}

describe("bpmn.io's texts in Portuguese", () => {
  test("the translate service fills the library's {name} replacements in the translation", () => {
    const tr = translator({ "Open {element}": "Abrir {element}" });
    expect(tr("Open {element}", { element: "Sub" })).toBe("Abrir Sub");
    expect(tr("Unknown {x}", { x: 1 })).toBe("Unknown 1");
    expect(tr("Kept {y}")).toBe("Kept {y}");
  });

  test("every catalog key is an English template the installed libraries use, with the same placeholders", async () => {
    const bpmn = await librarySources([
      "bpmn-js/lib/features/**/*.js",
      "diagram-js/lib/features/**/*.js",
      "bpmn-js-properties-panel/dist/index.esm.js",
      "@bpmn-io/properties-panel/dist/index.esm.js",
    ]);
    const dmn = await librarySources(["dmn-js-*/lib/**/*.js"]);
    const unknown: string[] = [];
    const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const [words, source] of [
      [bpmnDiagram, bpmn],
      [bpmnPanel, bpmn],
      [dmnEditor, dmn],
    ] as const)
      for (const [en, pt] of Object.entries(words)) {
        if (!source.includes(`'${en}'`) && !source.includes(`"${en}"`)) unknown.push(en);
        expect({ en, holes: holes(pt) }).toEqual({ en, holes: holes(en) });
      }
    expect(unknown).toEqual([]);
  });
});
