// The DMN TCK (compliance level 2) run against engine/dmn: one bun test per test case.
// Known failures are listed below with their cause and asserted to still fail, so the suite stays
// green and notices when one starts passing; docs/dmn-conformance.md explains each.
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  applyJsonTable,
  DmnError,
  evaluateDecision,
  feelEquals,
  listDecisions,
  parseDmn,
  toJsonTable,
  toJsonValue,
  type DmnModel,
} from "../../engine/dmn";
import { readTckFile, type TckCase } from "../fixtures/dmn/tck-reader";
import { corpusDir, describeCorpus } from "../harness/corpora";

const TCK_DIR = corpusDir("dmn-tck-level2");

/** Case id (`folder#case`) → why it fails. */
const KNOWN_FAILURES: Record<string, string> = {};

// Expected decimals are written with ~15 significant digits; our numbers are IEEE doubles.
const TOLERANCE = 1e-12;

const tally = { passed: 0, failed: 0 };

async function runCase(model: DmnModel, tc: TckCase): Promise<string[]> {
  const problems: string[] = [];
  for (const r of tc.results) {
    let actual: unknown;
    let error: string | undefined;
    try {
      actual = evaluateDecision(model, r.name, tc.inputs).result;
    } catch (e) {
      if (!(e instanceof DmnError)) throw e; // the engine must never throw raw errors
      // The TCK models an evaluation error as a null result.
      actual = null;
      error = e.message;
    }
    if (r.errorResult) {
      if (error === undefined && actual !== null)
        problems.push(`${r.name}: expected an error, got ${JSON.stringify(toJsonValue(actual))}`);
      continue;
    }
    if (!feelEquals(actual, r.expected, TOLERANCE)) {
      problems.push(
        `${r.name}: expected ${JSON.stringify(toJsonValue(r.expected))}, got ${JSON.stringify(toJsonValue(actual))}${error ? ` (${error})` : ""}`,
      );
    }
  }
  return problems;
}

// The corpus ships beside the repository (../shared): absent, the suite is skipped (a failure under REQUIRE_CORPORA=1).
describeCorpus("dmn-tck-level2", "DMN TCK compliance level 2", () => {
  const folders = readdirSync(TCK_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  for (const folder of folders) {
    const dir = join(TCK_DIR, folder);
    const files = readdirSync(dir);
    const modelFile = files.find((f) => f.endsWith(".dmn"));
    describe(folder, () => {
      let model: Promise<DmnModel> | undefined;
      const load = () => (model ??= parseDmn(readFileSync(join(dir, modelFile!), "utf8")));
      const suites = files
        .filter((f) => /-test-\d+\.xml$/.test(f))
        .sort()
        .map((f) => readTckFile(readFileSync(join(dir, f), "utf8")));
      // Not a TCK case: the JSON edit path must give back a model with the same results.
      test(`${folder} keeps its results through a JSON round trip of its decision tables`, async () => {
        let xml = readFileSync(join(dir, modelFile!), "utf8");
        const original = await load();
        for (const { key } of listDecisions(original)) {
          const el = original.elements[key];
          if (el.kind === "decision" && el.logic?.kind === "decisionTable")
            xml = await applyJsonTable(xml, key, toJsonTable(original, key));
        }
        const edited = await parseDmn(xml);
        for (const tc of suites.flatMap((s) => s.cases)) {
          if (KNOWN_FAILURES[`${folder}#${tc.id}`]) continue;
          expect([tc.id, await runCase(edited, tc)]).toEqual([tc.id, []]);
        }
      });
      for (const suite of suites) {
        for (const tc of suite.cases) {
          const id = `${folder}#${tc.id}`;
          const known = KNOWN_FAILURES[id];
          const title = `${id}${tc.description ? ` ${tc.description}` : ""}`;
          if (known) {
            test(`${title} still fails: ${known}`, async () => {
              const problems = await load()
                .then((m) => runCase(m, tc))
                .catch((e: Error) => [e.message]);
              tally.failed++;
              expect(problems.length).toBeGreaterThan(0);
            });
            continue;
          }
          test(title, async () => {
            const problems = await runCase(await load(), tc);
            problems.length ? tally.failed++ : tally.passed++;
            expect(problems).toEqual([]);
          });
        }
      }
    });
  }
  afterAll(() => {
    const total = tally.passed + tally.failed;
    const pct = total ? ((100 * tally.passed) / total).toFixed(1) : "0";
    console.log(`DMN TCK: ${tally.passed} passed, ${tally.failed} failed (${pct}%)`);
  });
});
