// Child process for HTTP benchmarks: a real service on a temp data dir with a tenant, an admin and a token.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../app/platform/config";
import { createPlatform } from "../../app/platform/platform";
import { httpDepsOf } from "../../app/platform/http-deps";
import { bootstrapSuperAdmin } from "../../app/platform/bootstrap";
import { createApp } from "../../app/http/app";
import { createLogger } from "../../app/platform/observability/logger";

// BENCH_OBSERVABILITY=on: access logs (JSON lines into a file of the data dir, as in production) and metrics;
// off: the same build without them (bench:http compares the two in one run).
const observe = process.env.BENCH_OBSERVABILITY === "on";

const dataDir = mkdtempSync(join(tmpdir(), "pms-bench-"));
const platform = createPlatform({
  config: loadConfig({
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: "sa@bench",
    BOOTSTRAP_ADMIN_PASSWORD: "bench-password",
    SQLITE_SYNCHRONOUS: process.env.SQLITE_SYNCHRONOUS,
    // bench:agents points the service at its local OpenAI-compatible server
    AI_BASE_URL: process.env.AI_BASE_URL,
    AI_MODEL: process.env.AI_MODEL,
    // bench:noisy-neighbour and others deliver webhooks to receivers on 127.0.0.1
    WEBHOOKS_ALLOW_PRIVATE: process.env.WEBHOOKS_ALLOW_PRIVATE,
    // bench:soak's firms each send from an address of their own (X-Forwarded-For, as behind a reverse proxy)
    TRUST_PROXY: process.env.TRUST_PROXY,
  }),
  log: () => {},
  logger: observe ? createLogger({ file: join(dataDir, "access.log") }) : undefined,
});
await bootstrapSuperAdmin(platform);
const deps = httpDepsOf(platform);
const app = createApp(observe ? deps : { ...deps, observability: undefined });
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  idleTimeout: 255,
  fetch: (req, srv) => app.fetch(req, { server: srv }),
});
const base = `http://127.0.0.1:${server.port}`;
const post = async (path: string, body: unknown, token?: string) => {
  const res = await fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return res.json() as Promise<Record<string, any>>;
};
const sa = (await post("/api/auth/login", { email: "sa@bench", password: "bench-password" })).accessToken;
const tenant = await post("/api/admin/tenants", { slug: "bench", name: "Bench" }, sa);
await platform.idle();
const user = await post(
  "/api/admin/users",
  { email: "admin@bench.test", password: "bench-password", firstName: "B" },
  sa,
);
await post(`/api/admin/tenants/${tenant.id}/members`, { userId: user.id, role: "ADMIN" }, sa);
/** A token of `email` with the bench tenant selected. */
const tenantToken = async (email: string) => {
  const login = await post("/api/auth/login", { email, password: "bench-password" });
  const selected = await post("/api/auth/select-tenant", { tenantSlug: "bench" }, login.accessToken);
  if (!selected.accessToken)
    throw new Error(`bench setup failed: ${JSON.stringify({ tenant, email, login, selected })}`);
  return selected.accessToken as string;
};
const token = await tenantToken("admin@bench.test");
// An ordinary member (USER role), whose GET /a/tasks is their inbox: the REST peer of svc_run_my_tasks in bench:mcp.
const member = await post(
  "/api/admin/users",
  { email: "user@bench.test", password: "bench-password", firstName: "U" },
  sa,
);
await post(`/api/admin/tenants/${tenant.id}/members`, { userId: member.id, role: "USER" }, sa);
const userToken = await tenantToken("user@bench.test");
// Background work as in `npm start` (job executor, timers, the checkpointer): the write path measured is the served one.
platform.start();
console.log(JSON.stringify({ base, token, userToken, userId: member.id, tenantId: tenant.id, dataDir }));
// A normal exit on SIGTERM, so that a CPU profile asked for by BENCH_CHILD_PROFILE is written.
process.on("SIGTERM", () => process.exit(0));
// BENCH_HEAP_LOG=<file>: each minute, the JavaScript heap's size and its most numerous object types, and
// process.memoryUsage(), as a JSON line (bench:soak's search for what grows: the JS heap, or native memory).
if (process.env.BENCH_HEAP_LOG) {
  const { heapStats } = await import("bun:jsc");
  const { appendFileSync } = await import("node:fs");
  const file = process.env.BENCH_HEAP_LOG;
  setInterval(() => {
    const h = heapStats();
    const top = Object.entries(h.objectTypeCounts)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12);
    appendFileSync(
      file,
      `${JSON.stringify({ at: new Date().toISOString(), heapSize: h.heapSize, objects: h.objectCount, top, mem: process.memoryUsage() })}\n`,
    );
  }, 60_000).unref();
}
