/**
 * Timer benchmark. Run A: 10,000 timers due within 10 s, fired by the in-process executor: lag p50/p99/max.
 * Run B: the same in a child process killed with SIGKILL mid-run, then restarted: lost and duplicated firings (must be 0).
 * Usage: bun bench/timers.ts [timers]   (internal: bun bench/timers.ts child <dbPath>)
 */
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../db/connection";
import { runMigrations } from "../db/migrate";
import { createProcessRuntime } from "../app/runtime/bpmn";
import { createKernel } from "../app/runtime/kernel/kernel";

const T = "bench";
const MODEL = `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="bench"><process id="tm" isExecutable="true">
  <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="wait"/>
  <intermediateCatchEvent id="wait"><timerEventDefinition><timeDate>\${due}</timeDate></timerEventDefinition></intermediateCatchEvent>
  <sequenceFlow id="f1" sourceRef="wait" targetRef="e"/><endEvent id="e"/></process></definitions>`;

if (process.argv[2] === "child") {
  const rt = createProcessRuntime({ kernel: createKernel({ db: openSqlite(process.argv[3]) }) });
  rt.startJobExecutor({ intervalMs: 20 });
  process.on("SIGTERM", async () => {
    await rt.stop();
    process.exit(0);
  });
} else {
  const N = Number(process.argv[2] ?? 10_000);
  const dir = mkdtempSync(join(tmpdir(), "bench-timers-"));

  const prepare = async (path: string) => {
    const db = openSqlite(path);
    runMigrations(db, "engine");
    const rt = createProcessRuntime({ kernel: createKernel({ db }) });
    await rt.deploy(T, MODEL, { fileName: "tm.bpmn", createdBy: null });
    // Leave room for creating every instance first, so no timer is already overdue when the executor starts.
    const base = Date.now() + Math.max(4000, N * 1.5);
    for (let i = 0; i < N; i++)
      await rt.startInstance(T, {
        definitionKey: "tm",
        variables: { due: new Date(base + Math.floor((i / N) * 10_000)).toISOString() },
      });
    return { db, rt, base };
  };
  const analyse = (db: ReturnType<typeof openSqlite>) => {
    const rows = db
      .query(`SELECT a.instance_id AS id, a.end_time AS fired, v.value AS due FROM activity_log a JOIN variables v ON v.execution_id = a.instance_id AND v.name = 'due'
      WHERE a.activity_id = 'wait' AND a.end_time IS NOT NULL`)
      .all() as Array<{ id: string; fired: number; due: string }>;
    const perInstance = new Map<string, number>();
    for (const r of rows) perInstance.set(r.id, (perInstance.get(r.id) ?? 0) + 1);
    const lags = rows.map((r) => r.fired - Date.parse(JSON.parse(r.due))).sort((a, b) => a - b);
    const q = (p: number) => lags[Math.min(lags.length - 1, Math.floor(p * lags.length))] ?? NaN;
    const early = lags.filter((l) => l < 0).length;
    const lost = (
      db.query("SELECT COUNT(*) AS c FROM process_instances WHERE state != 'COMPLETED'").get() as { c: number }
    ).c;
    const dup = [...perInstance.values()].filter((c) => c > 1).length;
    return { fired: perInstance.size, p50: q(0.5), p99: q(0.99), max: lags[lags.length - 1], early, lost, dup };
  };
  const waitUntil = async (pred: () => boolean, ms: number) => {
    const end = Date.now() + ms;
    while (!pred() && Date.now() < end) await Bun.sleep(50);
  };

  // Run A: in-process executor.
  const a = await prepare(join(dir, "a.db"));
  a.rt.startJobExecutor({ intervalMs: 20 });
  const remaining = (db: ReturnType<typeof openSqlite>) =>
    (db.query("SELECT COUNT(*) AS c FROM jobs").get() as { c: number }).c;
  await waitUntil(() => Date.now() > a.base + 10_000 && remaining(a.db) === 0, 60_000);
  await a.rt.stop();
  const ra = analyse(a.db);

  // Run B: child process, SIGKILL half-way through the firing window, then a fresh child.
  const pathB = join(dir, "b.db");
  const b = await prepare(pathB);
  b.db.close();
  const child = () => spawn(process.execPath, [import.meta.path, "child", pathB], { stdio: "inherit" });
  const c1 = child();
  await Bun.sleep(Math.max(0, b.base + 5000 - Date.now()));
  c1.kill("SIGKILL");
  await new Promise((r) => c1.once("exit", r));
  const c2 = child();
  const check = openSqlite(pathB);
  await waitUntil(() => remaining(check) === 0, 60_000);
  c2.kill("SIGTERM");
  await new Promise((r) => c2.once("exit", r));
  const rb = analyse(check);

  console.log(`timers: ${N} due within 10 s`);
  console.log(
    `run A (in-process executor): fired ${ra.fired}, lag p50 ${ra.p50} ms, p99 ${ra.p99} ms, max ${ra.max} ms, early ${ra.early}, lost ${ra.lost}, duplicated ${ra.dup}`,
  );
  console.log(
    `run B (kill -9 at +5 s, restart): fired ${rb.fired}, lost ${rb.lost}, duplicated ${rb.dup}, early ${rb.early}, lag p99 ${rb.p99} ms, max ${rb.max} ms (includes the restart)`,
  );
}
