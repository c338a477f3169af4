// bench:tasks — the task inbox of a user who sees 10,000 of 100,000 open tasks, and completions at a sustained rate.
// Targets (issue 4): inbox p99 < 50 ms; ≥ 1,000 completions/s. Issue 19: the Manager's dashboard stays flat as open
// tasks grow (its totals are kept counters), printed as its p50 before and after the setup.
import { load, printTable, startChild } from "./support/load";
import { closedLoop, fmt } from "./support/closed-loop";

const svc = await startChild<{
  base: string;
  workerToken: string;
  managerToken: string;
  setupSeconds: number;
  dashboardEmpty: number;
  dashboardFull: number;
}>("bench/support/tasks-server.ts");
try {
  const { base, workerToken, managerToken } = svc.info;
  console.log(
    `setup: ${process.env.BENCH_TOTAL_TASKS ?? 100_000} instances started in ${svc.info.setupSeconds.toFixed(1)} s`,
  );
  const { dashboardEmpty: d0, dashboardFull: d1 } = svc.info;
  const total = Number(process.env.BENCH_TOTAL_TASKS ?? 100_000).toLocaleString("en");
  console.log(
    `GET /api/a/dashboard (manager, 1 connection) p50: ${d0.toFixed(2)} ms with 0 open tasks, ${d1.toFixed(2)} ms with ${total} (${(d1 / d0).toFixed(2)}x)`,
  );
  const worker = { authorization: `Bearer ${workerToken}` };
  const visible = (await (
    await fetch(`${base}/api/a/tasks?size=200&page=49`, { headers: worker })
  ).json()) as unknown[];
  console.log(`worker's page 49 of 200 holds ${visible.length} tasks (10,000 visible expected to fill it)`);
  const manager0 = { authorization: `Bearer ${managerToken}` };
  const targets: Array<[string, string, Record<string, string>]> = [
    ["GET /api/a/tasks (worker, first page of 100)", "/api/a/tasks", worker],
    ["GET /api/a/tasks?page=40&size=200 (worker)", "/api/a/tasks?page=40&size=200", worker],
    ["GET /api/a/tasks?mine=true (worker)", "/api/a/tasks?mine=true", worker],
    ["GET /api/a/tasks (manager, first page)", "/api/a/tasks", manager0],
    ["GET /api/a/tasks?page=400&size=200 (manager)", "/api/a/tasks?page=400&size=200", manager0],
  ];
  // 32 connections measure throughput (latency then includes queueing behind 31 other requests on 2 cores);
  // 1 connection gives the honest latency of one query.
  console.log("32 connections:");
  const many = [];
  for (const [name, path, headers] of targets) many.push(await load(name, base + path, { headers }));
  printTable(many);
  console.log("1 connection:");
  const one = [];
  for (const [name, path, headers] of targets) one.push(await load(name, base + path, { headers, connections: 1 }));
  printTable(one);
  // Completions: the manager claims and completes tasks of the tenant, one task per loop step.
  const manager = { authorization: `Bearer ${managerToken}`, "content-type": "application/json" };
  const queue: string[] = [];
  for (let p = 0; queue.length < 60_000 && p < 300; p++) {
    const page = (await (await fetch(`${base}/api/a/tasks?size=200&page=${p}`, { headers: manager })).json()) as {
      id: string;
    }[];
    if (!page.length) break;
    queue.push(...page.map((t) => t.id));
  }
  const r = await closedLoop(
    async () => {
      const id = queue.pop();
      if (!id) throw new Error("queue empty");
      const c = await fetch(`${base}/api/a/tasks/${id}/claim`, { method: "POST", headers: manager });
      if (c.status !== 200) throw new Error(`claim ${c.status}`);
      await c.arrayBuffer();
      const d = await fetch(`${base}/api/a/tasks/${id}/complete`, { method: "POST", headers: manager, body: "{}" });
      if (d.status !== 200) throw new Error(`complete ${d.status}`);
      await d.arrayBuffer();
    },
    { workers: 16, seconds: Number(process.env.BENCH_SECONDS ?? 8) },
  );
  console.log(`claim+complete over HTTP (manager)       ${fmt(r)}  (completions/s; target ≥ 1,000)`);
  console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
} finally {
  svc.proc.kill();
}
