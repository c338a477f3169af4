/**
 * bench:pair-cost — what one start + complete pair of bench:bpmn-http costs the service's JavaScript thread with the
 * network taken away: the same routes through `app.request` in-process, 16 concurrent callers so that group commit
 * batches as it does when served. Prints the thread's time per pair, the WAL frames (pages) written per pair, and
 * where the SQL time goes, statement by statement. It bounds what any served figure can reach: at 4,000 pairs/s one
 * thread has 250 µs per pair for everything, network included.
 * Usage: bun bench/pair-cost.ts [pairs]   (4,800 by default; SQLITE_SYNCHRONOUS=FULL for the FULL mode)
 */
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createApp } from "../app/http/app";
import { bootstrapSuperAdmin } from "../app/platform/bootstrap";
import { loadConfig } from "../app/platform/config";
import { httpDepsOf } from "../app/platform/http-deps";
import { createPlatform } from "../app/platform/platform";

const CALLERS = 16;
const pairs = Math.ceil(Number(process.argv[2] ?? 4800) / CALLERS) * CALLERS;

// Statement timing: each statement the engine connection prepares reports its calls and time while `timing` is on.
// Installed before the platform opens its connections; the timed phase is separate from the measured one.
type Stat = { calls: number; ns: number };
const statements = new Map<string, Stat>();
let timing = false;
for (const method of ["query", "prepare"] as const) {
  const original = Database.prototype[method] as (this: Database, sql: string, ...rest: unknown[]) => unknown;
  (Database.prototype as unknown as Record<string, unknown>)[method] = function (
    this: Database,
    sql: string,
    ...rest: unknown[]
  ) {
    const statement = original.call(this, sql, ...rest) as Record<string, unknown>;
    if (!this.filename.endsWith("engine.sqlite")) return statement;
    const text = sql.replace(/\s+/g, " ").slice(0, 90);
    for (const call of ["run", "get", "all", "values"]) {
      const fn = statement[call];
      if (typeof fn !== "function") continue;
      statement[call] = (...args: unknown[]) => {
        if (!timing) return fn.apply(statement, args);
        const t0 = Bun.nanoseconds();
        try {
          return fn.apply(statement, args);
        } finally {
          const key = `${call.padEnd(4)} ${text}`;
          const s = statements.get(key) ?? { calls: 0, ns: 0 };
          s.calls++;
          s.ns += Bun.nanoseconds() - t0;
          statements.set(key, s);
        }
      };
    }
    return statement;
  };
}

const dataDir = mkdtempSync(join(tmpdir(), "pms-pair-cost-"));
const password = "bench-password";
const platform = createPlatform({
  config: loadConfig({
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: "sa@bench",
    BOOTSTRAP_ADMIN_PASSWORD: password,
    SQLITE_SYNCHRONOUS: process.env.SQLITE_SYNCHRONOUS, // NORMAL unless set, as in the service
  }),
  log: () => {},
});
await bootstrapSuperAdmin(platform);
const app = createApp(httpDepsOf(platform));
/** The fields of the answers the bench reads. */
type Answer = { accessToken?: string; activeTasks?: { id: string }[] };
const call = async (path: string, body: unknown, token?: string) => {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const init: RequestInit = { method: "POST", headers };
  if (body instanceof FormData) init.body = body;
  else {
    headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await app.request(path, init, { ip: "127.0.0.1" });
  return { status: res.status, json: (await res.json()) as Answer };
};
const sa = (await call("/api/auth/login", { email: "sa@bench", password })).json.accessToken;
await call("/api/admin/tenants", { slug: "bench", name: "Bench" }, sa);
await platform.idle();
const token = (await call("/api/auth/select-tenant", { tenantSlug: "bench" }, sa)).json.accessToken;
const bpmn = new FormData();
bpmn.append(
  "file",
  new File(
    [
      `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="bench">
  <process id="oneTask" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Do it" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" />
    <endEvent id="e" />
  </process>
</definitions>`,
    ],
    "one-task.bpmn",
  ),
);
const deployed = await call("/api/a/definitions/deploy", bpmn, token);
if (deployed.status !== 200) throw new Error(`deploy failed: ${JSON.stringify(deployed.json)}`);

// The pair bench:bpmn-http sends, with the same bodies.
const pair = async () => {
  const started = await call("/api/a/instances", { definitionKey: "oneTask", businessKey: "B" }, token);
  if (started.status !== 201) throw new Error(`start: ${started.status}`);
  const done = await call(
    `/api/a/tasks/${started.json.activeTasks?.[0]?.id}/complete`,
    { variables: { ok: true } },
    token,
  );
  if (done.status !== 200) throw new Error(`complete: ${done.status}`);
};
const callers = (n: number) =>
  Promise.all(
    Array.from({ length: CALLERS }, async () => {
      for (let i = 0; i < n / CALLERS; i++) await pair();
    }),
  );

await callers(Math.max(1600, pairs / 3)); // warm-up: JIT, caches, the WAL's first pages
// No checkpointer runs (the platform is not started), so the WAL only grows: its growth is the frames written.
const wal = () => Bun.file(join(dataDir, "engine.sqlite-wal")).size;
// The WAL header names the page size (bytes 8–11, big-endian).
const walHeader = new DataView(await Bun.file(join(dataDir, "engine.sqlite-wal")).slice(0, 32).arrayBuffer());
const pageSize = walHeader.getUint32(8);
const wal0 = wal();
const cpu0 = process.cpuUsage();
const t0 = Bun.nanoseconds();
await callers(pairs);
const wallUs = (Bun.nanoseconds() - t0) / 1e3 / pairs;
const cpu = process.cpuUsage(cpu0);
const framesPerPair = (wal() - wal0) / (pageSize + 24) / pairs;

timing = true;
await callers(pairs);
timing = false;
let sqlNs = 0;
let sqlCalls = 0;
for (const s of statements.values()) {
  sqlNs += s.ns;
  sqlCalls += s.calls;
}

console.log(
  `start + complete in-process, synchronous=${process.env.SQLITE_SYNCHRONOUS ?? "NORMAL"}, ${CALLERS} callers, ${pairs} pairs: ${wallUs.toFixed(0)} µs of wall time per pair ` +
    `(${(1e6 / wallUs).toFixed(0)} pairs/s), process CPU ${((cpu.user + cpu.system) / pairs).toFixed(0)} µs per pair`,
);
console.log(
  `  engine WAL frames per pair ${framesPerPair.toFixed(2)} (${pageSize}-byte pages); ` +
    `statements (not counting the group commit's BEGIN, SAVEPOINTs and COMMIT): ${(sqlCalls / pairs).toFixed(1)} per pair, ${(sqlNs / 1e3 / pairs).toFixed(0)} µs`,
);
// The peer: issue 19's served target, 4,000 pairs/s, leaves one JavaScript thread 250 µs per pair.
const BUDGET_US = 250;
console.log(
  `  one JS thread at 4,000 pairs/s has ${BUDGET_US} µs per pair for everything, the network included: ` +
    `this in-process pair takes ${((wallUs / BUDGET_US) * 100).toFixed(0)} % of it`,
);
for (const [text, s] of [...statements].sort((a, b) => b[1].ns - a[1].ns).slice(0, 12))
  console.log(
    `  ${(s.calls / pairs).toFixed(1).padStart(4)} × ${(s.ns / s.calls / 1e3).toFixed(1).padStart(5)} µs  ${text}`,
  );
console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
process.exit(0);
