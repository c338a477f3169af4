// bench:bpmn-scale — N waiting instances (one user task each, default 1,000,000) in one tenant; then a fresh server on that
// data folder: its resident memory and the latency of the task inbox and the instance list for a Manager and for a user
// who sees 1 % of them (through a process role). Targets (issue 3): RSS < 300 MB, query p99 < 50 ms.
// Env: BENCH_INSTANCES (default 1,000,000), BENCH_SECONDS (per measurement, default 5), BENCH_DATA_DIR (reuse a filled folder).
// The same file runs the three child processes (SCALE_ROLE=setup | fill | server), each printing one JSON line.
import { mkdtempSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../app/platform/config";
import { createPlatform } from "../app/platform/platform";
import { httpDepsOf } from "../app/platform/http-deps";
import { bootstrapSuperAdmin } from "../app/platform/bootstrap";
import { createApp } from "../app/http/app";
import { openSqlite } from "../db/connection";
import { runMigrations } from "../db/migrate";
import { engineDbPath } from "../tenants/paths";
import { createProcessRuntime } from "../app/runtime/bpmn";
import { createKernel } from "../app/runtime/kernel/kernel";

const N = Number(process.env.BENCH_INSTANCES ?? 1_000_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const PASSWORD = "bench-password";
const role = process.env.SCALE_ROLE;
const model = (id: string, group: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="bench">
  <process id="${id}" isExecutable="true"><startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Work" flowable:candidateGroups="${group}" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" /><endEvent id="e" /></process>
</definitions>`;

function platformOn(dataDir: string) {
  return createPlatform({
    config: loadConfig({
      DATA_DIR: dataDir,
      BOOTSTRAP_ADMIN_EMAIL: "sa@bench.test",
      BOOTSTRAP_ADMIN_PASSWORD: PASSWORD,
    }),
    log: () => {},
  });
}

async function serve(dataDir: string) {
  const platform = platformOn(dataDir);
  await bootstrapSuperAdmin(platform);
  const app = createApp(httpDepsOf(platform));
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req, srv) => app.fetch(req, { server: srv }) });
  return { platform, base: `http://127.0.0.1:${server.port}` };
}

async function call(base: string, method: string, path: string, body?: unknown, token?: string) {
  const res = await fetch(base + path, {
    method,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return res.json() as Promise<Record<string, any>>;
}

async function tenantToken(base: string, email: string) {
  const l = await call(base, "POST", "/api/auth/login", { email, password: PASSWORD });
  return (await call(base, "POST", "/api/auth/select-tenant", { tenantSlug: "bench" }, l.accessToken))
    .accessToken as string;
}

if (role === "setup") {
  // Tenant, a Manager, a worker holding the process role "team-a", and the two one-task processes.
  const { platform, base } = await serve(process.env.DATA_DIR!);
  const sa = (await call(base, "POST", "/api/auth/login", { email: "sa@bench.test", password: PASSWORD })).accessToken;
  const tenant = await call(base, "POST", "/api/admin/tenants", { slug: "bench", name: "Bench" }, sa);
  await platform.idle();
  const user = async (email: string, r: string) => {
    const u = await call(base, "POST", "/api/admin/users", { email, password: PASSWORD, firstName: "B" }, sa);
    await call(base, "POST", `/api/admin/tenants/${tenant.id}/members`, { userId: u.id, role: r }, sa);
    return u.id as string;
  };
  const worker = await user("worker@bench.test", "USER");
  await user("manager@bench.test", "MANAGER");
  const sel = await call(base, "POST", "/api/auth/select-tenant", { tenantSlug: "bench" }, sa);
  const pr = await call(base, "POST", "/api/a/process-roles", { key: "team-a", name: "Team A" }, sel.accessToken);
  await call(base, "POST", `/api/a/process-roles/${pr.id}/members`, { userId: worker }, sel.accessToken);
  const rt = platform.processRuntime;
  await rt.deploy(tenant.id, model("teamA", "team-a"), { fileName: "a.bpmn", createdBy: null });
  await rt.deploy(tenant.id, model("others", "team-b"), { fileName: "b.bpmn", createdBy: null });
  await platform.stop();
  console.log(JSON.stringify({ tenantId: tenant.id }));
  process.exit(0);
} else if (role === "fill") {
  // Through the runtime, 256 commands in flight: group commit writes each batch in one transaction.
  const db = openSqlite(engineDbPath(process.env.DATA_DIR!));
  runMigrations(db, "engine");
  const rt = createProcessRuntime({ kernel: createKernel({ db }) });
  const tenantId = process.env.TENANT_ID!;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 256 }, async () => {
      for (let i = next++; i < N; i = next++) {
        await rt.startInstance(tenantId, { definitionKey: i % 100 === 0 ? "teamA" : "others", businessKey: `B-${i}` });
        if (i % 100_000 === 0 && i)
          console.error(`  ${i.toLocaleString("en-US")} instances, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
  console.log(JSON.stringify({ seconds }));
  process.exit(0);
} else if (role === "server") {
  // As app/http/serve.ts runs it: with the job executor and timer loops polling.
  const { platform, base } = await serve(process.env.DATA_DIR!);
  platform.start();
  console.log(JSON.stringify({ base, pid: process.pid }));
} else {
  const { load, printTable, startChild } = await import("./support/load");
  const given = process.env.BENCH_DATA_DIR;
  const dataDir = given ?? mkdtempSync(join(tmpdir(), "pms-bench-scale-"));
  if (!given || !existsSync(join(dataDir, "scale-filled"))) {
    const setup = await startChild<{ tenantId: string }>("bench/bpmn-scale.ts", {
      SCALE_ROLE: "setup",
      DATA_DIR: dataDir,
    });
    const fill = await startChild<{ seconds: number }>("bench/bpmn-scale.ts", {
      SCALE_ROLE: "fill",
      DATA_DIR: dataDir,
      TENANT_ID: setup.info.tenantId,
    });
    console.log(
      `fill: ${N.toLocaleString("en-US")} waiting instances in ${fill.info.seconds.toFixed(0)} s (${Math.round(N / fill.info.seconds).toLocaleString("en-US")}/s through the runtime, 256 in flight)`,
    );
    await Bun.write(join(dataDir, "scale-filled"), String(N));
  }
  const engineFile = Bun.file(engineDbPath(dataDir));
  console.log(`data folder ${dataDir}: engine database ${(engineFile.size / 1e6).toFixed(0)} MB`);
  const t0 = performance.now();
  const svc = await startChild<{ base: string; pid: number }>("bench/bpmn-scale.ts", {
    SCALE_ROLE: "server",
    DATA_DIR: dataDir,
  });
  console.log(`server started in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const rss = async () => {
    const status = await Bun.file(`/proc/${svc.info.pid}/status`).text();
    const kb = (k: string) => Number(status.match(new RegExp(`${k}:\\s+(\\d+)`))?.[1] ?? 0);
    return `RSS ${(kb("VmRSS") / 1024).toFixed(0)} MB (peak ${(kb("VmHWM") / 1024).toFixed(0)} MB)`;
  };
  try {
    console.log(`after start: ${await rss()}`);
    const base = svc.info.base;
    const manager = { authorization: `Bearer ${await tenantToken(base, "manager@bench.test")}` };
    const worker = { authorization: `Bearer ${await tenantToken(base, "worker@bench.test")}` };
    const count = (await (await fetch(`${base}/api/a/instances?type=BPMN&size=1`, { headers: worker })).json()) as {
      totalElements: number;
    };
    console.log(`the worker takes part in ${count.totalElements.toLocaleString("en-US")} instances`);
    const targets: Array<[string, string, Record<string, string>]> = [
      ["GET /api/a/tasks (Manager)", "/api/a/tasks", manager],
      ["GET /api/a/tasks (user, 1 % visible)", "/api/a/tasks", worker],
      ["GET /api/a/instances (Manager)", "/api/a/instances", manager],
      ["GET /api/a/instances (user)", "/api/a/instances", worker],
      ["GET /api/a/tasks?page=40&size=200 (Manager)", "/api/a/tasks?page=40&size=200", manager],
      ["GET /api/a/instances?page=100 (user)", "/api/a/instances?page=100", worker],
    ];
    for (const [, path, headers] of targets)
      for (let i = 0; i < 20; i++) await (await fetch(base + path, { headers })).arrayBuffer();
    console.log("1 connection (latency of one query):");
    const one = [];
    for (const [name, path, headers] of targets)
      one.push(await load(name, base + path, { headers, connections: 1, duration: SECONDS }));
    printTable(one);
    console.log(`after the 1-connection runs: ${await rss()}`);
    console.log("32 connections (throughput; latency includes queueing):");
    const many = [];
    for (const [name, path, headers] of targets.slice(0, 4))
      many.push(await load(name, base + path, { headers, connections: 32, duration: SECONDS }));
    printTable(many);
    console.log(`after load: ${await rss()}   targets: RSS < 300 MB, p99 < 50 ms`);
    console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
  } finally {
    svc.proc.kill();
  }
}
