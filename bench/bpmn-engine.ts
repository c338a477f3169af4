/**
 * Engine-only throughput with persistence (our interpreter on SQLite) against bpmn-engine (npm) saving its state to
 * SQLite at each wait. Workloads: start → exclusive gateway → script → end, and start → user task → end with the completion.
 * Usage: bun bench/bpmn-engine.ts [instances]
 */
import { Database } from "bun:sqlite";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCheckpointer } from "../db/checkpointer";
import { openSqlite } from "../db/connection";
import { runMigrations } from "../db/migrate";
import { createProcessRuntime } from "../app/runtime/bpmn";
import { createKernel } from "../app/runtime/kernel/kernel";

const N = Number(process.argv[2] ?? 5000);
const T = "bench";
const dir = mkdtempSync(join(tmpdir(), "bench-bpmn-"));

const ns = `xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="bench"`;
const ours = {
  script: `<definitions ${ns}><process id="gw" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/>
    <exclusiveGateway id="g" default="fd"/>
    <sequenceFlow id="fa" sourceRef="g" targetRef="calc"><conditionExpression>\${amount > 100}</conditionExpression></sequenceFlow>
    <sequenceFlow id="fd" sourceRef="g" targetRef="e"/>
    <scriptTask id="calc" scriptFormat="feel" flowable:resultVariable="total"><script>amount * 2</script></scriptTask>
    <sequenceFlow id="f1" sourceRef="calc" targetRef="e"/><endEvent id="e"/></process></definitions>`,
  task: `<definitions ${ns}><process id="ut" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t" flowable:assignee="kermit"/>
    <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/></process></definitions>`,
};
const theirs = {
  script: `<definitions ${ns}><process id="gw" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/>
    <exclusiveGateway id="g" default="fd"/>
    <sequenceFlow id="fa" sourceRef="g" targetRef="calc"><conditionExpression xsi:type="tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\${environment.variables.amount > 100}</conditionExpression></sequenceFlow>
    <sequenceFlow id="fd" sourceRef="g" targetRef="e"/>
    <scriptTask id="calc" scriptFormat="javascript"><script>environment.output.total = environment.variables.amount * 2; next();</script></scriptTask>
    <sequenceFlow id="f1" sourceRef="calc" targetRef="e"/><endEvent id="e"/></process></definitions>`,
  task: ours.task,
};

/** WAL frames (pages) one command writes, averaged over `n` commands: the deterministic part of a commit's cost. */
async function framesPer(db: Database, n: number, op: (i: number) => Promise<unknown>): Promise<number> {
  db.query("PRAGMA wal_checkpoint(TRUNCATE)").get();
  for (let i = 0; i < n; i++) await op(i);
  const r = db.query("PRAGMA wal_checkpoint(PASSIVE)").get() as { log: number };
  return r.log / n;
}

async function runOurs(): Promise<{
  script: number;
  task: number;
  concurrent: number;
  concurrentScript: number;
  scriptCpu: number;
  taskCpu: number;
  frames: { start: number; complete: number; script: number };
}> {
  // Opened as the service opens its engine database, with the background checkpointer it starts.
  const path = join(dir, "ours.db");
  const db = openSqlite(path, {
    kind: "engine",
    synchronous: (process.env.SQLITE_SYNCHRONOUS ?? "NORMAL") as "NORMAL",
  });
  runMigrations(db, "engine");
  const checkpointer = startCheckpointer({ dbs: [{ name: "engine", path }] });
  const rt = createProcessRuntime({ kernel: createKernel({ db }) });
  await rt.deploy(T, ours.script, { fileName: "gw.bpmn", createdBy: null });
  await rt.deploy(T, ours.task, { fileName: "ut.bpmn", createdBy: null });
  for (let i = 0; i < 200; i++) await rt.startInstance(T, { definitionKey: "gw", variables: { amount: 150 } }); // warm-up
  // CPU time per instance (user + system) beside the rate: steadier than wall time on a shared machine.
  const cpuPer = (c: NodeJS.CpuUsage) => (c.user + c.system) / N;
  let t0 = performance.now();
  let c0 = process.cpuUsage();
  for (let i = 0; i < N; i++)
    await rt.startInstance(T, { definitionKey: "gw", variables: { amount: i % 2 ? 150 : 50 } });
  const script = N / ((performance.now() - t0) / 1000);
  const scriptCpu = cpuPer(process.cpuUsage(c0));
  t0 = performance.now();
  c0 = process.cpuUsage();
  for (let i = 0; i < N; i++) {
    const inst = await rt.startInstance(T, { definitionKey: "ut", variables: { n: i } });
    await rt.completeTask(T, inst.activeTasks[0].id, { ok: true }, { userId: "kermit", channel: "REST" });
  }
  const task = N / ((performance.now() - t0) / 1000);
  const taskCpu = cpuPer(process.cpuUsage(c0));
  // The same workloads from 16 concurrent callers (as an HTTP server sees them): group commit applies.
  let next = 0;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next++ < N) await rt.startInstance(T, { definitionKey: "gw", variables: { amount: next % 2 ? 150 : 50 } });
    }),
  );
  const concurrentScript = N / ((performance.now() - t0) / 1000);
  next = 0;
  t0 = performance.now();
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next++ < N) {
        const inst = await rt.startInstance(T, { definitionKey: "ut", variables: { n: next } });
        await rt.completeTask(T, inst.activeTasks[0].id, { ok: true }, { userId: "kermit", channel: "REST" });
      }
    }),
  );
  const concurrent = N / ((performance.now() - t0) / 1000);
  await checkpointer.stop(); // the frame counts below read the WAL between checkpoints
  const ids: string[] = [];
  const frames = {
    script: await framesPer(db, 500, (i) =>
      rt.startInstance(T, { definitionKey: "gw", variables: { amount: i % 2 ? 150 : 50 } }),
    ),
    start: await framesPer(db, 500, async (i) => {
      ids.push((await rt.startInstance(T, { definitionKey: "ut", variables: { n: i } })).activeTasks[0].id);
    }),
    complete: await framesPer(db, 500, (i) =>
      rt.completeTask(T, ids[i], { ok: true }, { userId: "kermit", channel: "REST" }),
    ),
  };
  db.close();
  return { script, task, concurrent, concurrentScript, frames, scriptCpu, taskCpu };
}

async function runTheirs(): Promise<{ script: number; task: number }> {
  const { Engine } = await import("bpmn-engine");
  const db = new Database(join(dir, "theirs.db"), { create: true });
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL");
  db.exec("CREATE TABLE IF NOT EXISTS state (id TEXT PRIMARY KEY, body TEXT NOT NULL)");
  const save = db.query(
    "INSERT INTO state (id, body) VALUES (?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body",
  );
  const load = db.query("SELECT body FROM state WHERE id = ?");
  const n = Math.max(200, Math.floor(N / 5));
  let t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const engine = new Engine({ name: `gw-${i}`, source: theirs.script });
    await engine.execute({ variables: { amount: i % 2 ? 150 : 50 } });
    save.run(`gw-${i}`, JSON.stringify(await engine.getState()));
  }
  const script = n / ((performance.now() - t0) / 1000);
  t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const id = `ut-${i}`;
    const engine = new Engine({ name: id, source: theirs.task });
    await engine.execute({ variables: { n: i } });
    save.run(id, JSON.stringify(await engine.getState()));
    // A later request: recover from SQLite, complete the task, save again.
    const state = JSON.parse((load.get(id) as { body: string }).body);
    const again = new Engine({ name: id, source: theirs.task }).recover(state);
    const execution = await again.resume();
    execution.signal({ id: "t" });
    save.run(id, JSON.stringify(await again.getState()));
  }
  const task = n / ((performance.now() - t0) / 1000);
  db.close();
  return { script, task };
}

const a = await runOurs();
const b = await runTheirs();
const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
console.log(`instances: ${N} (ours), ${Math.max(200, Math.floor(N / 5))} (bpmn-engine)`);
console.log(
  `start → exclusive gateway → script → end   ours ${fmt(a.script)}/s   bpmn-engine ${fmt(b.script)}/s   ratio ${(a.script / b.script).toFixed(1)}×`,
);
console.log(
  `start → user task → end (with completion)   ours ${fmt(a.task)}/s   bpmn-engine ${fmt(b.task)}/s   ratio ${(a.task / b.task).toFixed(1)}×`,
);
console.log(
  `CPU per instance (one caller): script workload ${a.scriptCpu.toFixed(0)} µs, user-task workload ${a.taskCpu.toFixed(0)} µs`,
);
console.log(
  `16 concurrent callers: script workload ours ${fmt(a.concurrentScript)}/s, user-task workload ours ${fmt(a.concurrent)}/s`,
);
console.log(
  `WAL frames per command: script instance ${a.frames.script.toFixed(1)}, start ${a.frames.start.toFixed(1)}, completion ${a.frames.complete.toFixed(1)}`,
);
console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
