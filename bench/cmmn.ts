/**
 * Case engine throughput through the façade on a SQLite file: a case with a stage holding two human tasks and a
 * milestone reached when the stage completes, started and driven to completion (two task completions). Peer: the BPMN
 * runtime on the equivalent process (parallel split into two user tasks, join, end).
 * Usage: bun bench/cmmn.ts [cases]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../db/connection";
import { runMigrations } from "../db/migrate";
import { createCaseRuntime } from "../app/services/case-runtime";
import { createProcessRuntime } from "../app/services/process-runtime";

const N = Number(process.argv[2] ?? 2000);
const T = "bench";
const actor = { userId: "kermit", channel: "REST" };

const CASE = `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" xmlns:flowable="http://flowable.org/cmmn" targetNamespace="bench">
  <case id="bench"><casePlanModel id="plan">
    <planItem id="piStage" name="Stage" definitionRef="st"/>
    <planItem id="piMs" name="Done" definitionRef="ms"><entryCriterion id="e1" sentryRef="s1"/></planItem>
    <sentry id="s1"><planItemOnPart id="op1" sourceRef="piStage"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
    <milestone id="ms" name="Done"/>
    <stage id="st" name="Stage"><planItem id="piA" name="A" definitionRef="a"/><planItem id="piB" name="B" definitionRef="b"/>
      <humanTask id="a" name="A" flowable:assignee="kermit"/><humanTask id="b" name="B" flowable:assignee="kermit"/></stage>
  </casePlanModel></case></definitions>`;
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
  const rt = createCaseRuntime({ db });
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
  const rt = createProcessRuntime({ db });
  await rt.deploy(T, PROCESS, { fileName: "bench.bpmn", createdBy: null });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    const p = await rt.startInstance(T, { definitionKey: "bench", startedBy: "kermit" });
    for (const t of p.activeTasks) await rt.completeTask(T, t.id, {}, actor);
  }
  return N / ((performance.now() - t0) / 1000);
}

const c = await cases();
const p = await processes();
console.log(`CMMN engine (façade, SQLite file): ${N} cases (stage, 2 human tasks, milestone) started and completed: ${c.toFixed(0)} cases/s`);
console.log(`BPMN peer (parallel split, 2 user tasks, join): ${p.toFixed(0)} instances/s; ratio CMMN/BPMN ${(c / p).toFixed(2)}`);
