// bench:console — the console's shipped asset sizes (gzipped) and the time to interactive of the tasklist showing
// 1,000 tasks in headless Chromium. Targets (issue 30): < 150 KB gzipped without bpmn-js; tasklist TTI < 1 s.
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
    `${name.padEnd(30)} ${kb(a.bytes.length).padStart(9)}  ${kb(gz).padStart(9)} ${kb(br).padStart(9)}   ${eager ? "first page" : "diagram and modeler pages only"}`,
  );
}
console.log(
  `first page load: ${kb(first)} gzipped, ${kb(firstBr)} brotli (target < 150 KB compressed, issue 30: ${(first / (150 * 1024)).toFixed(2)}× the budget with gzip)`,
);
console.log(`lazy (bpmn-js viewer, modeler, properties panel): ${kb(lazy)} gzipped, ${kb(lazyBr)} brotli`);

// 2. Time to interactive of the tasklist with TASKS visible tasks.
const missing = browserMissing();
if (missing) {
  console.log(`tasklist TTI: skipped, ${missing}`);
  process.exit(0);
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
    // Interactive: every row rendered with its claim button, measured in the page from navigation start.
    await page.waitForFunction((n) => document.querySelectorAll(".task-row a").length === n, TASKS, {
      timeout: 30_000,
    });
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
} finally {
  await web.close();
}
