// DMN engine throughput: a 50-rule, 5-input UNIQUE table and a COLLECT SUM table through the compiled
// engine, against the uncached paths (feelin re-parsing every cell on each call; re-parsing the XML).
// Run: npx bun bench/dmn.ts. `runDmnBench` is exported so that an HTTP figure can be added beside it.
import { evaluate, unaryTest } from "feelin";
import { evaluateDecision, parseDmn, toJsonTable, type DmnModel, type JsonTable } from "../engine/dmn";

const NS = "https://www.omg.org/spec/DMN/20191111/MODEL/";
const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

function tableXml(id: string, attrs: string, inputs: string[], rules: string[][]): string {
  const ins = inputs.map(
    (e, k) =>
      `<input id="${id}_i${k}"><inputExpression typeRef="${k === 1 ? "string" : k === 4 ? "boolean" : "number"}"><text>${e}</text></inputExpression></input>`,
  );
  const rs = rules.map((cells, r) => {
    const ie = cells
      .slice(0, inputs.length)
      .map((c) => `<inputEntry><text>${esc(c)}</text></inputEntry>`)
      .join("");
    const oe = cells
      .slice(inputs.length)
      .map((c) => `<outputEntry><text>${esc(c)}</text></outputEntry>`)
      .join("");
    return `<rule id="${id}_r${r + 1}">${ie}${oe}</rule>`;
  });
  return `<decision id="${id}" name="${id}"><decisionTable id="${id}_t" ${attrs}>${ins.join("")}<output id="${id}_o" name="out"/>${rs.join("")}</decisionTable></decision>`;
}

/** The benchmark model: `unique50` (50 rules, 5 inputs, UNIQUE) and `sum20` (20 rules, COLLECT SUM). */
export function benchModelXml(): string {
  const tiers = ['"gold","platinum"', '"silver"', "-", 'not("banned")'];
  const unique = Array.from({ length: 50 }, (_, k) => [
    `[${k * 10}..${k * 10 + 10})`,
    tiers[k % 4],
    k % 3 === 0 ? ">= 0" : "-",
    k % 2 ? "< 1000" : "[0..5000]",
    k % 5 === 0 ? "true" : "-",
    `"result ${k}"`,
  ]);
  const sum = Array.from({ length: 20 }, (_, k) => [`> ${k * 25}`, `${k + 1}`]);
  return `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="${NS}" id="bench" name="bench" namespace="http://example.com/bench">
${tableXml("unique50", 'hitPolicy="UNIQUE"', ["score", "tier", "age", "income", "active"], unique)}
${tableXml("sum20", 'hitPolicy="COLLECT" aggregation="SUM"', ["score"], sum)}
</definitions>`;
}

const inputsFor = (i: number) => ({
  score: (i * 37) % 500,
  tier: ["gold", "silver", "bronze", "platinum"][i % 4],
  age: 30 + (i % 40),
  income: 900 - (i % 100),
  active: true,
});

// The engine's semantics without its compilation: feelin parses every input expression, input entry and output entry on each call.
function uncachedUnique(t: JsonTable, vars: Record<string, unknown>): unknown {
  const values = t.inputs.map((i) => evaluate(i.expression, vars).value);
  const hits = t.rules.filter((r) =>
    r.inputEntries.every((e, k) => e.trim() === "-" || unaryTest(e, { ...vars, "?": values[k] }).value === true),
  );
  if (hits.length > 1) throw new Error("UNIQUE violated");
  return hits.length ? evaluate(hits[0].outputEntries[0], vars).value : null;
}

function rate(fn: (i: number) => unknown, minMs: number): number {
  for (let i = 0; i < 200; i++) fn(i);
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    for (let k = 0; k < 100; k++) fn(n++);
    elapsed = performance.now() - start;
  }
  return (n / elapsed) * 1000;
}

async function rateAsync(fn: (i: number) => Promise<unknown>, minMs: number): Promise<number> {
  for (let i = 0; i < 5; i++) await fn(i);
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) await fn(n++);
  return (n / (performance.now() - start)) * 1000;
}

export interface DmnBenchResult {
  unique50PerSec: number;
  collectSumPerSec: number;
  uncachedFeelPerSec: number;
  uncachedXmlPerSec: number;
  ratioVsUncachedFeel: number;
  ratioVsUncachedXml: number;
}

/** Measure evaluations per second of each path; `minMs` is the measuring time per figure. */
export async function runDmnBench(minMs = 1000): Promise<DmnBenchResult> {
  const xml = benchModelXml();
  const model: DmnModel = await parseDmn(xml);
  const table = toJsonTable(model, "unique50");
  for (let i = 0; i < 500; i++) {
    // the two paths must agree before their speeds mean anything
    if (evaluateDecision(model, "unique50", inputsFor(i)).result !== uncachedUnique(table, inputsFor(i)))
      throw new Error(`paths disagree at ${i}`);
  }
  const unique50PerSec = rate((i) => evaluateDecision(model, "unique50", inputsFor(i)), minMs);
  const collectSumPerSec = rate((i) => evaluateDecision(model, "sum20", inputsFor(i)), minMs);
  const uncachedFeelPerSec = rate((i) => uncachedUnique(table, inputsFor(i)), minMs);
  const uncachedXmlPerSec = await rateAsync(
    async (i) => evaluateDecision(await parseDmn(xml), "unique50", inputsFor(i)),
    minMs,
  );
  return {
    unique50PerSec,
    collectSumPerSec,
    uncachedFeelPerSec,
    uncachedXmlPerSec,
    ratioVsUncachedFeel: unique50PerSec / uncachedFeelPerSec,
    ratioVsUncachedXml: unique50PerSec / uncachedXmlPerSec,
  };
}

if (import.meta.main) {
  const r = await runDmnBench();
  const f = (n: number) => Math.round(n).toLocaleString("en-US");
  console.log(
    `DMN 50-rule 5-input UNIQUE, compiled engine:  ${f(r.unique50PerSec)} evaluations/s (${(1e6 / r.unique50PerSec).toFixed(1)} µs each)`,
  );
  console.log(`DMN 20-rule COLLECT SUM, compiled engine:      ${f(r.collectSumPerSec)} evaluations/s`);
  console.log(`DMN 50-rule UNIQUE, uncached (feelin per cell): ${f(r.uncachedFeelPerSec)} evaluations/s`);
  console.log(`DMN 50-rule UNIQUE, uncached (XML per call):    ${f(r.uncachedXmlPerSec)} evaluations/s`);
  console.log(
    `ratio compiled / uncached feelin: ${r.ratioVsUncachedFeel.toFixed(0)}x; compiled / XML re-parse: ${r.ratioVsUncachedXml.toFixed(0)}x`,
  );
  if (!process.argv.includes("--engine-only")) await runHttp();
}

/** The same tables through POST /api/a/decisions/{key}/evaluate on a real server (autocannon, child process). */
async function runHttp() {
  const { load, printTable, startChild } = await import("./support/load");
  const svc = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts");
  try {
    const auth = { authorization: `Bearer ${svc.info.token}` };
    const fd = new FormData();
    fd.append("file", new File([benchModelXml()], "bench.dmn"));
    const dep = await fetch(`${svc.info.base}/api/a/decisions`, { method: "POST", headers: auth, body: fd });
    if (dep.status !== 201) throw new Error(`deploy failed: ${dep.status} ${await dep.text()}`);
    const headers = { ...auth, "content-type": "application/json" };
    const body = JSON.stringify({ variables: inputsFor(7) });
    const rows = [
      await load("HTTP evaluate unique50", `${svc.info.base}/api/a/decisions/unique50/evaluate`, {
        method: "POST",
        headers,
        body,
      }),
      await load("HTTP evaluate sum20", `${svc.info.base}/api/a/decisions/sum20/evaluate`, {
        method: "POST",
        headers,
        body,
      }),
    ];
    printTable(rows);
  } finally {
    svc.proc.kill();
  }
}
