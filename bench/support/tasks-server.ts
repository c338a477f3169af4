// Child process for bench:tasks: a tenant with TOTAL open tasks, VISIBLE of them offered to one user's process role.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../app/platform/config";
import { createPlatform } from "../../app/platform/platform";
import { httpDepsOf } from "../../app/platform/http-deps";
import { bootstrapSuperAdmin } from "../../app/platform/bootstrap";
import { createApp } from "../../app/http/app";

const TOTAL = Number(process.env.BENCH_TOTAL_TASKS ?? 100_000);
const VISIBLE = Number(process.env.BENCH_VISIBLE_TASKS ?? 10_000);
const model = (id: string, group: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="bench">
  <process id="${id}" isExecutable="true"><startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Work" flowable:candidateGroups="${group}" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" /></process>
</definitions>`;

const dataDir = mkdtempSync(join(tmpdir(), "pms-bench-tasks-"));
const platform = createPlatform({
  config: loadConfig({
    DATA_DIR: dataDir,
    BOOTSTRAP_ADMIN_EMAIL: "sa@bench.test",
    BOOTSTRAP_ADMIN_PASSWORD: "bench-password",
  }),
  log: () => {},
});
await bootstrapSuperAdmin(platform);
const app = createApp(httpDepsOf(platform));
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => app.fetch(req, { server: srv }) });
const base = `http://127.0.0.1:${server.port}`;
const call = async (method: string, path: string, body?: unknown, token?: string) => {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json() as Promise<Record<string, any>>;
};
const sa = (await call("POST", "/api/auth/login", { email: "sa@bench.test", password: "bench-password" })).accessToken;
const tenant = await call("POST", "/api/admin/tenants", { slug: "bench", name: "Bench" }, sa);
await platform.idle();
const tokenOf = async (email: string, role: string) => {
  const u = await call("POST", "/api/admin/users", { email, password: "bench-password", firstName: "B" }, sa);
  await call("POST", `/api/admin/tenants/${tenant.id}/members`, { userId: u.id, role }, sa);
  const l = await call("POST", "/api/auth/login", { email, password: "bench-password" });
  return {
    id: u.id as string,
    token: (await call("POST", "/api/auth/select-tenant", { tenantSlug: "bench" }, l.accessToken))
      .accessToken as string,
  };
};
const worker = await tokenOf("worker@bench.test", "USER");
const manager = await tokenOf("manager@bench.test", "MANAGER");
// Roles are defined by Modelers: the super admin's tenant token defines the role and assigns the worker.
const sel = await call("POST", "/api/auth/select-tenant", { tenantSlug: "bench" }, sa);
const role = await call("POST", "/api/a/process-roles", { key: "team-a", name: "Team A" }, sel.accessToken);
const member = await call("POST", `/api/a/process-roles/${role.id}/members`, { userId: worker.id }, sel.accessToken);
if (!role.id || member.status)
  throw new Error(`bench setup: process role not assigned: ${JSON.stringify({ role, member })}`);
const rt = platform.processRuntime;
await rt.deploy(tenant.id, model("teamA", "team-a"), { fileName: "a.bpmn", createdBy: null });
await rt.deploy(tenant.id, model("others", "team-b"), { fileName: "b.bpmn", createdBy: null });
/** p50 of the Manager's dashboard over `n` sequential requests (after a warm-up): it must not grow with open tasks. */
const dashboardP50 = async (n = 300) => {
  const headers = { authorization: `Bearer ${manager.token}` };
  const times: number[] = [];
  for (let i = 0; i < n + 50; i++) {
    const t = performance.now();
    const res = await fetch(`${base}/api/a/dashboard`, { headers });
    if (res.status !== 200) throw new Error(`dashboard ${res.status}`);
    await res.arrayBuffer();
    if (i >= 50) times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)] as number;
};
const dashboardEmpty = await dashboardP50();
const t0 = performance.now();
for (let i = 0; i < TOTAL; i++) {
  await rt.startInstance(tenant.id, {
    definitionKey: i % Math.round(TOTAL / VISIBLE) === 0 ? "teamA" : "others",
    businessKey: `B-${i}`,
  });
}
const setupSeconds = (performance.now() - t0) / 1000;
const dashboardFull = await dashboardP50();
console.log(
  JSON.stringify({
    base,
    dashboardEmpty,
    dashboardFull,
    workerToken: worker.token,
    managerToken: manager.token,
    setupSeconds,
  }),
);
