// bench:history — the history cleanup removing N ended instances (default 1,000,000; HISTORY_N for a quick proof)
// while clients keep reading the Manager dashboard and the instance list: the longest request wait must stay under
// 50 ms. Also the dashboard p50 with no history against N ended instances (it must stay flat).
// The service runs in this process (the cleanup and the requests share its event loop, as in production).
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../app/platform/config";
import { createPlatform } from "../app/platform/platform";
import { bootstrapSuperAdmin } from "../app/platform/bootstrap";
import { httpDepsOf } from "../app/platform/http-deps";
import { createApp } from "../app/http/app";

const N = Number(process.env.HISTORY_N ?? 1_000_000);
const DAY = 86_400_000;
const dataDir = mkdtempSync(join(tmpdir(), "pms-bench-history-"));
const config = loadConfig({
  DATA_DIR: dataDir,
  JWT_SECRET: "x".repeat(40),
  BOOTSTRAP_ADMIN_EMAIL: "admin@bench.local",
  BOOTSTRAP_ADMIN_PASSWORD: "bench-password-1",
  HISTORY_CLEANUP_WINDOW: "off",
  HISTORY_CLEANUP_BATCH_SIZE: process.env.HISTORY_CLEANUP_BATCH_SIZE,
});
let now = Date.now();
const platform = createPlatform({ config, clock: { now: () => now }, log: () => {} });
await bootstrapSuperAdmin(platform);
const app = createApp(httpDepsOf(platform));
// Background work as in production (the checkpointer above all: the cleanup writes as much WAL as it deletes); the
// cleanup's own window is off, so it runs only when asked below.
platform.start();
// The longest batch (one transaction): what a request can wait behind.
let longestBatch = 0;
const recordCleanup = platform.metrics.recordCleanup.bind(platform.metrics);
platform.metrics.recordCleanup = (b, seconds) => {
  longestBatch = Math.max(longestBatch, seconds);
  recordCleanup(b, seconds);
};
const server = Bun.serve({ port: 0, fetch: (req, srv) => app.fetch(req, { server: srv }) });
const base = `http://127.0.0.1:${server.port}/api`;

const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
};
const login = await post("/auth/login", { email: "admin@bench.local", password: "bench-password-1" });
await post("/admin/tenants", { slug: "bench", name: "Bench" }, login.accessToken as string);
await platform.idle();
const token = (await post("/auth/select-tenant", { tenantSlug: "bench" }, login.accessToken as string))
  .accessToken as string;
const auth = { authorization: `Bearer ${token}` };
const fd = new FormData();
fd.append(
  "file",
  new File(
    [
      `<?xml version="1.0" encoding="UTF-8"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="b">
  <process id="oneTask" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
  <userTask id="t" name="Do it"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/></process></definitions>`,
    ],
    "one.bpmn",
  ),
);
await fetch(`${base}/a/definitions/deploy`, { method: "POST", headers: auth, body: fd });
const started = await post("/a/instances", { definitionKey: "oneTask", variables: { a: 1 } }, token);
const taskId = (started.activeTasks as { id: string }[])[0]?.id as string;
await post(`/a/tasks/${taskId}/comments`, { message: "template" }, token);
await post(`/a/tasks/${taskId}/complete`, { variables: { ok: true } }, token);
for (let i = 0; i < 20; i++) await post("/a/instances", { definitionKey: "oneTask" }, token); // running ones stay

const p50 = async (path: string, n = 200) => {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await (await fetch(`${base}${path}`, { headers: auth })).arrayBuffer();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)] as number;
};
const dashEmpty = await p50("/a/dashboard");

// N copies of the finished instance with all its rows (activity log, variables, task, candidates, comment, involvements).
const db = platform.engineSqlite;
const template = started.id as string;
const tenant = (db.query("SELECT tenant_id AS t FROM process_instances WHERE id = ?").get(template) as { t: string }).t;
const cols = (table: string) =>
  (db.query(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
const copy = (table: string, where: string, remap: Record<string, string>) => {
  const names = cols(table);
  const select = names.map((c) => remap[c] ?? c).join(", ");
  return db.query(`INSERT INTO ${table} (${names.join(", ")}) SELECT ${select} FROM ${table} WHERE ${where}`);
};
const sfx = (c: string) => `${c} || '-' || $n`;
const inTask = "tenant_id = $tenant AND task_id = $task";
const copies = [
  copy("process_instances", "id = $id", { id: sfx("id") }),
  copy("activity_log", "instance_id = $id", {
    instance_id: sfx("instance_id"),
    id: sfx("id"),
    task_id: sfx("task_id"),
  }),
  copy("variables", "instance_id = $id", { instance_id: sfx("instance_id"), execution_id: sfx("execution_id") }),
  copy("involvements", "instance_id = $id", { instance_id: sfx("instance_id") }),
  copy("tasks", "instance_id = $id", { instance_id: sfx("instance_id"), id: sfx("id") }),
  copy("task_candidates", inTask, { task_id: sfx("task_id") }),
  copy("task_comments", inTask, { task_id: sfx("task_id"), id: sfx("id") }),
];
const t0 = performance.now();
const CHUNK = 5000;
for (let from = 0; from < N; from += CHUNK) {
  db.transaction(() => {
    for (let n = from; n < Math.min(N, from + CHUNK); n++)
      for (const q of copies) q.run({ id: template, task: taskId, tenant, n: String(n) } as never);
  })();
}
console.log(`seeded ${N.toLocaleString()} ended instances in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
// The seeding's transactions left a large WAL: let the checkpointer copy and truncate it before measuring.
const walBytes = () => statSync(join(dataDir, "engine.sqlite-wal"), { throwIfNoEntry: false })?.size ?? 0;
for (let i = 0; i < 600 && walBytes() > 1024 * 1024; i++) await Bun.sleep(100);
const dashFull = await p50("/a/dashboard");
console.log(
  `Manager dashboard p50: ${dashEmpty.toFixed(2)} ms with no history, ${dashFull.toFixed(2)} ms with ${N.toLocaleString()} ended (${(dashFull / dashEmpty).toFixed(2)}x)`,
);

// Clean up while 4 clients read; every request's time is kept.
await fetch(`${base}/a/history/retention`, {
  method: "PUT",
  headers: { ...auth, "content-type": "application/json" },
  body: JSON.stringify({ defaultHistoryTimeToLive: 1 }),
});
now += 2 * DAY;
const fresh = await post("/auth/login", { email: "admin@bench.local", password: "bench-password-1" });
const tok2 = (await post("/auth/select-tenant", { tenantSlug: "bench" }, fresh.accessToken as string))
  .accessToken as string;
let done = false;
const waits: number[] = [];
const client = async (path: string) => {
  while (!done) {
    const t = performance.now();
    await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${tok2}` } })).arrayBuffer();
    waits.push(performance.now() - t);
  }
};
const c0 = performance.now();
const clients = [client("/a/dashboard"), client("/a/instances?size=20"), client("/a/dashboard"), client("/a/tasks")];
const removed = await platform.historyCleanup.runNow();
const seconds = (performance.now() - c0) / 1000;
done = true;
await Promise.all(clients);
waits.sort((a, b) => a - b);
const pct = (p: number) => (waits[Math.floor((waits.length - 1) * p)] ?? 0).toFixed(1);
console.log(
  `cleanup: ${removed.toLocaleString()} instances in ${seconds.toFixed(1)} s (${Math.round(removed / seconds).toLocaleString()}/s, batches of up to ${config.historyCleanup.batchSize}, sized to ~10 ms)`,
);
console.log(
  `requests meanwhile: ${waits.length.toLocaleString()}, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms (target: max < 50 ms); longest batch ${(longestBatch * 1000).toFixed(1)} ms`,
);
console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
server.stop(true);
await platform.stop();
rmSync(dataDir, { recursive: true, force: true });
