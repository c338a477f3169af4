/**
 * Case engine throughput: a case with a stage holding two human tasks and a milestone reached when the stage completes,
 * started and driven to completion (two task completions), through the case runtime façade on a SQLite file and over
 * HTTP (POST /a/instances, then POST /a/tasks/{id}/complete for both tasks, against a child server; closed loop).
 * Peer: the BPMN runtime on the equivalent process (parallel split into two user tasks, join, end).
 * Usage: bun bench/cmmn.ts [cases]   (BENCH_SECONDS, BENCH_WORKERS for the HTTP run; BENCH_HTTP=0 skips it)
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../db/connection";
import { runMigrations } from "../db/migrate";
import { createCaseRuntime } from "../app/runtime/cmmn";
import { createProcessRuntime } from "../app/runtime/bpmn";
import { startChild } from "./support/load";
import { closedLoop, fmt, type LoopResult } from "./support/closed-loop";
import { createKernel } from "../app/runtime/kernel/kernel";

const N = Number(process.argv[2] ?? 2000);
const T = "bench";
const actor = { userId: "kermit", channel: "REST" };

const caseXml = (
  assignee: string,
) => `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" xmlns:flowable="http://flowable.org/cmmn" targetNamespace="bench">
  <case id="bench"><casePlanModel id="plan">
    <planItem id="piStage" name="Stage" definitionRef="st"/>
    <planItem id="piMs" name="Done" definitionRef="ms"><entryCriterion id="e1" sentryRef="s1"/></planItem>
    <sentry id="s1"><planItemOnPart id="op1" sourceRef="piStage"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
    <milestone id="ms" name="Done"/>
    <stage id="st" name="Stage"><planItem id="piA" name="A" definitionRef="a"/><planItem id="piB" name="B" definitionRef="b"/>
      <humanTask id="a" name="A"${assignee}/><humanTask id="b" name="B"${assignee}/></stage>
  </casePlanModel></case></definitions>`;
const CASE = caseXml(` flowable:assignee="kermit"`);
// Over HTTP the tasks have no assignee and no candidates, so the caller completes them directly (no claim).
const HTTP_CASE = caseXml("");
const PROCESS = `<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="bench">
  <process id="bench" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
    <parallelGateway id="fork"/><sequenceFlow id="fa" sourceRef="fork" targetRef="a"/><sequenceFlow id="fb" sourceRef="fork" targetRef="b"/>
    <userTask id="a" flowable:assignee="kermit"/><userTask id="b" flowable:assignee="kermit"/>
    <sequenceFlow id="fa2" sourceRef="a" targetRef="join"/><sequenceFlow id="fb2" sourceRef="b" targetRef="join"/>
    <parallelGateway id="join"/><sequenceFlow id="f9" sourceRef="join" targetRef="e"/><endEvent id="e"/></process></definitions>`;

function database() {
  const db = openSqlite(join(mkdtempSync(join(tmpdir(), "bench-cmmn-")), "engine.db"));
  runMigrations(db, "engine");
  return db;
}

async function cases(): Promise<number> {
  const db = database();
  const rt = createCaseRuntime({ kernel: createKernel({ db }) });
  await rt.deploy(T, CASE, { fileName: "bench.cmmn", createdBy: null });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const c = await rt.startCase(T, { definitionKey: "bench", startedBy: "kermit" });
    for (const t of c.activeTasks) await rt.completeHumanTask(T, t.id, {}, actor);
  }
  const s = (performance.now() - t0) / 1000;
  const ended = rt.historyCases(T, { all: true, userId: null, groups: [] }, { size: 1 }).totalElements;
  if (ended !== N) throw new Error(`expected ${N} ended cases, got ${ended}`);
  return N / s;
}

async function processes(): Promise<number> {
  const db = database();
  const rt = createProcessRuntime({ kernel: createKernel({ db }) });
  await rt.deploy(T, PROCESS, { fileName: "bench.bpmn", createdBy: null });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const p = await rt.startInstance(T, { definitionKey: "bench", startedBy: "kermit" });
    for (const t of p.activeTasks) await rt.completeTask(T, t.id, {}, actor);
  }
  return N / ((performance.now() - t0) / 1000);
}

/** Cases started and driven to completion over HTTP: one step = start + complete both tasks (latency of the three requests). */
async function overHttp(): Promise<LoopResult> {
  const svc = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts");
  try {
    const auth = { authorization: `Bearer ${svc.info.token}` };
    const fd = new FormData();
    fd.append("file", new File([HTTP_CASE], "bench.cmmn"));
    const dep = await fetch(`${svc.info.base}/api/a/definitions/deploy`, { method: "POST", headers: auth, body: fd });
    if (dep.status !== 200) throw new Error(`deploy failed: ${await dep.text()}`);
    const headers = { ...auth, "content-type": "application/json" };
    let failure: string | null = null;
    const step = async () => {
      const started = await fetch(`${svc.info.base}/api/a/instances`, {
        method: "POST",
        headers,
        body: '{"definitionKey":"bench","businessKey":"B"}',
      });
      if (started.status !== 201) throw new Error((failure = `start ${started.status} ${await started.text()}`));
      const { activeTasks } = (await started.json()) as { activeTasks: { id: string }[] };
      if (activeTasks.length !== 2) throw new Error((failure = `expected 2 tasks, got ${activeTasks.length}`));
      for (const t of activeTasks) {
        const done = await fetch(`${svc.info.base}/api/a/tasks/${t.id}/complete`, {
          method: "POST",
          headers,
          body: '{"variables":{"ok":true}}',
        });
        if (done.status !== 200) throw new Error((failure = `complete ${done.status} ${await done.text()}`));
        await done.arrayBuffer();
      }
    };
    const workers = Number(process.env.BENCH_WORKERS ?? 16);
    await closedLoop(step, { workers, seconds: 2 });
    const r = await closedLoop(step, { workers, seconds: Number(process.env.BENCH_SECONDS ?? 8) });
    if (failure) console.log(`HTTP errors, e.g. ${failure}`);
    const ended = await fetch(`${svc.info.base}/api/a/history/instances?type=CMMN&size=1`, { headers: auth });
    const total = ((await ended.json()) as { totalElements: number }).totalElements;
    if (total < r.ops) throw new Error(`expected at least ${r.ops} ended cases, got ${total}`);
    return r;
  } finally {
    svc.proc.kill();
  }
}

const c = await cases();
const p = await processes();
console.log(
  `CMMN engine (façade, SQLite file): ${N} cases (stage, 2 human tasks, milestone) started and completed: ${c.toFixed(0)} cases/s`,
);
console.log(
  `BPMN peer (parallel split, 2 user tasks, join): ${p.toFixed(0)} instances/s; ratio CMMN/BPMN ${(c / p).toFixed(2)}`,
);
if (process.env.BENCH_HTTP !== "0") {
  const h = await overHttp();
  console.log(
    `CMMN over HTTP (start + 2 completions, ${process.env.BENCH_WORKERS ?? 16} workers): ${fmt(h)}  (completed cases/s; latency of the three requests)   target ≥ 500/s`,
  );
}
