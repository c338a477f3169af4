// Per-folder counts of DMN TCK result nodes passing, for measuring conformance beyond the test suite:
//   bun scripts/dmn-tck-level3.ts [folder-substring] [-v]
// L3=<dir> reads another copy of the TCK (default ../shared/corpora/dmn-tck-level3-part); -v prints each failure.
// The comparison is the test suite's (test/features/dmn-tck.test.ts): DMN equality, numbers within 1e-12, an error
// counts as null; a folder's models import each other by namespace.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { DmnError, type DmnModel, evaluateDecision, feelEquals, parseDmn, toJsonValue } from "../engine/dmn";
import { readTckFile, type TckFile } from "../test/fixtures/dmn/tck-reader";

const ROOT = process.env.L3 || resolve(import.meta.dir, "../../shared/corpora/dmn-tck-level3-part");
const only = process.argv.slice(2).find((a) => a !== "-v");
const verbose = process.argv.includes("-v");

function folderLoader(dir: string) {
  const files = readdirSync(dir).filter((f) => f.endsWith(".dmn"));
  const texts = new Map(files.map((f) => [f, readFileSync(join(dir, f), "utf8")]));
  const byNs = new Map<string, string>();
  for (const [f, xml] of texts) {
    const ns = /<(?:\w+:)?definitions\b[^>]*?\snamespace="([^"]+)"/.exec(xml)?.[1];
    if (ns) byNs.set(ns, f);
  }
  const cache = new Map<string, Promise<DmnModel>>();
  const load = (f: string): Promise<DmnModel> => {
    let p = cache.get(f);
    if (!p) {
      p = parseDmn(texts.get(f)!, async (ns) => (byNs.has(ns) ? load(byNs.get(ns)!) : null));
      cache.set(f, p);
    }
    return p;
  };
  return { files, load };
}

let passedAll = 0;
let totalAll = 0;
for (const folder of readdirSync(ROOT)
  .filter((f) => /^\d/.test(f))
  .sort()) {
  if (only && !folder.includes(only)) continue;
  const dir = join(ROOT, folder);
  const { files, load } = folderLoader(dir);
  const main = files.find((f) => f === `${folder}.dmn`) ?? files[0];
  let passed = 0;
  let total = 0;
  const failures: string[] = [];
  for (const tf of readdirSync(dir).filter((f) => /-test-\d+\.xml$/.test(f))) {
    let suite: TckFile;
    try {
      suite = readTckFile(readFileSync(join(dir, tf), "utf8"));
    } catch (e) {
      console.log(`${folder}: ${tf} unreadable: ${(e as Error).message}`);
      continue;
    }
    let model: DmnModel | undefined;
    let refused = "";
    try {
      model = await load(main);
    } catch (e) {
      refused = (e as Error).message;
    }
    for (const tc of suite.cases) {
      for (const r of tc.results) {
        total++;
        if (!model) {
          failures.push(`${folder}#${tc.id} ${r.name}: refused: ${refused}`);
          continue;
        }
        let actual: unknown = null;
        let error: string | undefined;
        try {
          actual = evaluateDecision(model, r.name, tc.inputs).result;
        } catch (e) {
          error = e instanceof DmnError ? e.message : `not a DmnError: ${(e as Error).stack}`;
        }
        const good = r.errorResult ? error !== undefined || actual === null : feelEquals(actual, r.expected, 1e-12);
        if (good) passed++;
        else
          failures.push(
            `${folder}#${tc.id} ${r.name}: expected ${JSON.stringify(toJsonValue(r.expected))}, got ${JSON.stringify(toJsonValue(actual))}${error ? ` (${error.slice(0, 300)})` : ""}`,
          );
      }
    }
  }
  passedAll += passed;
  totalAll += total;
  console.log(`${folder.padEnd(40)} ${passed}/${total} ${total ? ((100 * passed) / total).toFixed(1) : "-"}%`);
  if (verbose) for (const f of failures) console.log(`   ${f}`);
}
console.log(`TOTAL ${passedAll}/${totalAll} ${totalAll ? ((100 * passedAll) / totalAll).toFixed(1) : "-"}%`);
