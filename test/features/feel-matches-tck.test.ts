import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { compileExpression } from "../../engine/feel";
import { type CorpusName, corpusDir, describeCorpus } from "../harness/corpora";

// Issue 28: FEEL matches() runs on RE2 (linear time); every case of the DMN TCK's 1111-feel-matches-function must
// still give its expected result. Read directly (each decision is one literal expression), so this holds whatever the
// DMN reader makes of the folder's other content. The level-3 corpus is named here by a cast, not in the shared list.
const CORPUS = "dmn-tck-level3-part" as CorpusName;
const FOLDER = "1111-feel-matches-function";

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

describeCorpus(CORPUS, "DMN TCK 1111-feel-matches-function on the linear-time engine", () => {
  const dir = join(corpusDir(CORPUS), FOLDER);
  const dmn = readFileSync(join(dir, `${FOLDER}.dmn`), "utf8");
  const xml = readFileSync(join(dir, `${FOLDER}-test-01.xml`), "utf8");
  const decisions = [...dmn.matchAll(/<decision [^>]*name="([^"]*)"[\s\S]*?<text>([^<]*)<\/text>/g)];
  test("the folder has its 44 decisions", () => expect(decisions.length).toBe(44));
  for (const [, name, text] of decisions) {
    test(`${name}: ${decode(text)}`, () => {
      const node = new RegExp(`<resultNode name="${name}"([^>]*)>([\\s\\S]*?)</resultNode>`).exec(xml);
      if (!node) throw new Error(`no expected result for ${name}`);
      const values = [...node[2].matchAll(/<value[^>]*?(?:\/>|>([^<]*)<\/value>)/g)].map((v) =>
        v[1] === undefined ? null : v[1] === "true",
      );
      const c = compileExpression(decode(text));
      const r = c.ok ? c.value({}) : c;
      if (node[1].includes("errorResult")) {
        // An error result: null, or an evaluation error (never a value).
        if (r.ok) expect(r.value).toBeNull();
        return;
      }
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value).toEqual(values.length > 1 ? values : values[0]);
    });
  }
});
