// bench:console — the console's shipped asset sizes (gzipped), the time to interactive of the tasklist with 1,000
// tasks in headless Chromium (its first page of 50, paged and counted on the server), and the server time of the
// cockpit's instance search over 100,000 instances. Targets (issue 30): < 150 KB gzipped without bpmn-js; tasklist
// TTI < 1 s; instance search < 200 ms server time.
import { loadavg } from "node:os";
import { buildConsole } from "../console/build";
import { startTestServer } from "../test/harness/server";
import { createTenant, saToken, userInTenant } from "../test/harness/fixtures";
import { deployBpmn } from "../test/harness/process";
import { browserMissing, browserOn, consoleSession } from "../test/harness/browser";

const TASKS = Number(process.env.BENCH_CONSOLE_TASKS ?? 1000);
const RUNS = 5;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

// 1. Sizes: what the first page load fetches (the entry, its static imports, the stylesheet) versus the lazy chunks.
const assets = await buildConsole();
const text = (name: string) => new TextDecoder().decode(assets.get(name)?.bytes);
const initial = new Set<string>([...assets.keys()].filter((n) => /^(main|styles|favicon)-/.test(n)));
for (const n of [...initial]) for (const m of text(n).matchAll(/from"\.\/(chunk-[^"]+)"/g)) initial.add(m[1]);
let first = 0;
let firstBr = 0;
let lazy = 0;
let lazyBr = 0;
// gzipped: what a client accepting only gzip receives (the served precompressed copy, else the bytes); br: with brotli.
console.log("asset                          raw        gzipped   brotli    loaded");
for (const [name, a] of assets) {
  const gz = (a.gzip ?? a.bytes).length;
  const br = (a.br ?? a.bytes).length;
  const eager = initial.has(name);
  if (eager) [first, firstBr] = [first + gz, firstBr + br];
  else [lazy, lazyBr] = [lazy + gz, lazyBr + br];
  console.log(
    `${name.padEnd(30)} ${kb(a.bytes.length).padStart(9)}  ${kb(gz).padStart(9)} ${kb(br).padStart(9)}   ${eager ? "first page" : "by the pages that use it"}`,
  );
}
console.log(
  `first page load: ${kb(first)} gzipped, ${kb(firstBr)} brotli (target < 150 KB compressed, issue 30: ${(first / (150 * 1024)).toFixed(2)}× the budget with gzip)`,
);
console.log(`lazy (forms, modeler, bpmn-js, dmn-js, Portuguese): ${kb(lazy)} gzipped, ${kb(lazyBr)} brotli`);

// 2. Time to interactive of the tasklist with TASKS visible tasks.
const missing = browserMissing();
if (missing) {
  console.log(`tasklist TTI: skipped, ${missing}`);
  process.exit(0);
}
/**
 * The cockpit's instance search over INSTANCES waiting instances of one tenant (started through the runtime, 256 in
 * flight, each with a business key and a variable): the median and worst of 20 requests per query, as a Manager sees
 * them through the HTTP API (so the server's time plus the in-process request).
 */
async function instanceSearch(s: Awaited<ReturnType<typeof startTestServer>>) {
  const INSTANCES = Number(process.env.BENCH_CONSOLE_INSTANCES ?? 100_000);
  const sa = await saToken(s);
  const tenant = await createTenant(s, "bench-cockpit", sa);
  const [manager, modeler] = [
    await userInTenant(s, tenant, "MANAGER", sa),
    await userInTenant(s, tenant, "MODELER", sa),
  ];
  const xml = (id: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://example.com/bench">
  <process id="${id}" isExecutable="true"><startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Work" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" /></process>
</definitions>`;
  for (const key of ["orders", "claims"]) await deployBpmn(s, modeler.token, xml(key));
  const rt = s.platform.ports.processRuntime;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      for (let i = next++; i < INSTANCES; i = next++)
        await rt.startInstance(tenant.id, {
          definitionKey: i % 10 === 0 ? "claims" : "orders",
          businessKey: `ORD-${String(i).padStart(6, "0")}`,
          variables: { customer: `C-${i % 5000}` },
        });
    }),
  );
  console.log(`setup: ${INSTANCES} instances in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const queries: [string, string][] = [
    ["one definition, newest first", "definitionKey=orders"],
    ["one definition and version, page 100", "definitionKey=claims&version=1&page=100"],
    ["business key prefix", "businessKey=ORD-0777"],
    ["business key prefix in one definition", "definitionKey=orders&businessKey=ORD-07771"],
    ["variable value", "varName=customer&varValue=C-4242"],
    ["variable value in one definition", "definitionKey=claims&varName=customer&varValue=C-4240"],
    ["started in the last minute", `startedAfter=${new Date(Date.now() - 60_000).toISOString()}`],
    ["ended (the history), none yet", "definitionKey=orders&state=ended"],
  ];
  for (const [what, q] of queries) {
    const times: number[] = [];
    let total = 0;
    for (let run = 0; run < 20; run++) {
      const start = performance.now();
      const res = await s.req("GET", `/api/a/instances?${q}`, { token: manager.token });
      total = ((await res.json()) as { totalElements: number }).totalElements;
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    console.log(
      `instance search, ${what} (${total} found): median ${times[10].toFixed(1)} ms, max ${times[19].toFixed(1)} ms (target < 200 ms: ${(times[10] / 200).toFixed(2)}×)`,
    );
  }
}

const s = await startTestServer();
const web = await browserOn(s);
try {
  const sa = await saToken(s);
  const tenant = await createTenant(s, "bench-console", sa);
  const manager = await userInTenant(s, tenant, "MANAGER", sa);
  const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="http://example.com/bench">
  <process id="inbox" name="Inbox" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Review" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;
  const modeler = await userInTenant(s, tenant, "MODELER", sa);
  await deployBpmn(s, modeler.token, xml);
  const t0 = performance.now();
  for (let i = 0; i < TASKS; i++)
    await s.req("POST", "/api/a/instances", { token: manager.token, json: { definitionKey: "inbox" } });
  console.log(`setup: ${TASKS} instances started in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const session = await consoleSession(s, manager, tenant.slug);
  await (await fetch(`${web.url}/`)).text(); // the build happens once per process, not in the measured loads
  const page = await web.browser.newPage();
  await page.addInitScript((v) => localStorage.setItem("pms.session", v), session);
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`${web.url}/#/tasks`, { waitUntil: "commit" });
    // Interactive: the first page's rows drawn with their claim buttons and the count of all, measured in the page
    // from navigation start.
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll(".task-row button").length === Math.min(n, 50) &&
        !!document.querySelector('[aria-live="polite"]')?.textContent?.startsWith(`${n.toLocaleString("en")} task`),
      TASKS,
      { timeout: 30_000 },
    );
    times.push(await page.evaluate(() => performance.now()));
  }
  // Where the last load spent its time: the page and bundle, then the API pages (the rest is rendering).
  const phases = await page.evaluate(() =>
    performance
      .getEntries()
      .filter((e) => e.entryType === "navigation" || e.entryType === "resource")
      .map(
        (e) =>
          `${e.name.replace(location.origin, "").slice(0, 40)} ${e.startTime.toFixed(0)}–${(e.startTime + e.duration).toFixed(0)} ms`,
      ),
  );
  console.log(`last load: ${phases.join("; ")}`);
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `tasklist with ${TASKS} tasks, time to interactive over ${RUNS} loads: min ${times[0].toFixed(0)} ms, median ${median.toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms`,
  );
  console.log(
    `median / 1 s target: ${(median / 1000).toFixed(2)}; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(" ")}`,
  );
  await instanceSearch(s);
} finally {
  await web.close();
}
