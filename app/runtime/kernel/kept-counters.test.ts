import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../../db/connection";
import { migrationsFolder, runMigrations } from "../../../db/migrate";
import { ALL, bpmn, T, tempDbPath } from "../../../test/fixtures/bpmn/harness";
import { cmmn } from "../../../test/fixtures/cmmn/harness";
import { createProcessRuntime } from "../bpmn";
import { createCaseRuntime } from "../cmmn";
import { createTenantPurge } from "./tenant-purge";
import { createKernel } from "./kernel";

const B = "tenant-b";
const KEPT = "SELECT running, ended, open_tasks, running_cases, ended_cases FROM instance_counts WHERE tenant_id = ?";
/** The totals counted from the rows themselves: what instance_counts must always equal. */
const TRUTH = `SELECT
  (SELECT COUNT(*) FROM process_instances WHERE tenant_id = $t AND state IN ('ACTIVE','SUSPENDED')) AS running,
  (SELECT COUNT(*) FROM process_instances WHERE tenant_id = $t AND state IN ('COMPLETED','CANCELLED')) AS ended,
  (SELECT COUNT(*) FROM tasks WHERE tenant_id = $t AND state = 'OPEN') AS open_tasks,
  (SELECT COUNT(*) FROM case_instances WHERE tenant_id = $t AND state = 'ACTIVE') AS running_cases,
  (SELECT COUNT(*) FROM case_instances WHERE tenant_id = $t AND state <> 'ACTIVE') AS ended_cases`;
const ZERO = { running: 0, ended: 0, open_tasks: 0, running_cases: 0, ended_cases: 0 };
const kept = (db: Database, t: string) => db.query(KEPT).get(t) ?? ZERO;
const truth = (db: Database, t: string) => db.query(TRUTH).get({ t } as never);
const expectExact = (db: Database) => {
  for (const t of [T, B]) expect(kept(db, t)).toEqual(truth(db, t) as typeof ZERO);
};

const WAIT = bpmn(
  "wait",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t" flowable:candidateGroups="g"/>
   <sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
);
const PARALLEL = bpmn(
  "two",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="p"/><parallelGateway id="p"/>
   <sequenceFlow id="f1" sourceRef="p" targetRef="a"/><sequenceFlow id="f2" sourceRef="p" targetRef="b"/>
   <userTask id="a"/><userTask id="b" flowable:assignee="u"/>`,
);
const BAD = bpmn(
  "bad",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
   <sequenceFlow id="f1" sourceRef="t" targetRef="x"/><scriptTask id="x" scriptFormat="feel"><script>{ a: 1 }</script></scriptTask>
   <sequenceFlow id="f2" sourceRef="x" targetRef="g"/><exclusiveGateway id="g"/>
   <sequenceFlow id="f3" sourceRef="g" targetRef="e"><conditionExpression>\${a > 5}</conditionExpression></sequenceFlow><endEvent id="e"/>`,
);
const CASE = cmmn(
  "review",
  `<planItem id="piA" name="A" definitionRef="a"/><planItem id="piB" name="B" definitionRef="b"/>
   <humanTask id="a" name="A" flowable:candidateGroups="g"/><humanTask id="b" name="B"/>`,
);

async function open(path: string) {
  const db = openSqlite(path);
  runMigrations(db, "engine");
  const kernel = createKernel({ db });
  const rt = createProcessRuntime({ kernel });
  const cases = createCaseRuntime({ kernel });
  return { db, rt, cases, kernel };
}

describe("counters kept by triggers (instance_counts)", () => {
  test("equal a real count after mixed process, case and task writes, a failed command, cleanup, restart and purge", async () => {
    const path = tempDbPath();
    let { db, rt, cases, kernel } = await open(path);
    for (const t of [T, B]) {
      await rt.deploy(t, WAIT, { fileName: "w.bpmn", createdBy: null });
      await rt.deploy(t, PARALLEL, { fileName: "p.bpmn", createdBy: null });
      await rt.deploy(t, BAD, { fileName: "b.bpmn", createdBy: null });
      await cases.deploy(t, CASE, { fileName: "r.cmmn", createdBy: null });
    }
    const actor = { userId: "u", channel: "REST" };
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push(await rt.startInstance(T, { definitionKey: "wait" }));
    const two = await rt.startInstance(T, { definitionKey: "two" });
    await rt.startInstance(B, { definitionKey: "two" });
    expect(kept(db, T)).toMatchObject({ running: 5, open_tasks: 6 });
    await rt.completeTask(T, waits[0]!.activeTasks[0]!.id, {}, actor); // one task completed, the instance ends
    await rt.cancelInstance(T, waits[1]!.id); // its open task is cancelled
    await rt.cancelInstance(T, two.id); // two open tasks cancelled at once
    await rt.suspendInstance(T, waits[2]!.id);
    await rt.claim(T, waits[2]!.activeTasks[0]!.id, "u");
    await rt.activateInstance(T, waits[2]!.id);
    // A start whose completion fails afterwards: the failed command writes nothing, counters included.
    const bad = await rt.startInstance(T, { definitionKey: "bad" });
    await expect(rt.completeTask(T, bad.activeTasks[0]!.id, {}, actor)).rejects.toThrow();
    expectExact(db);

    const c1 = await cases.startCase(T, { definitionKey: "review" });
    const c2 = await cases.startCase(T, { definitionKey: "review" });
    await cases.startCase(B, { definitionKey: "review" });
    for (const t of c1.activeTasks) await cases.completeHumanTask(T, t.id, {}, actor); // c1 completes
    await cases.cancelCase(T, c2.id); // c2's open tasks are cancelled with it
    expect(kept(db, T)).toMatchObject({ running_cases: 0, ended_cases: 2 });
    expectExact(db);

    // Restart: a fresh connection and runtimes on the same file read the same, exact totals and go on keeping them.
    db.close();
    ({ db, rt, cases, kernel } = await open(path));
    expectExact(db);
    const c3 = await cases.startCase(T, { definitionKey: "review" });
    await cases.completeHumanTask(T, c3.activeTasks[0]!.id, {}, actor);
    await rt.completeTask(T, waits[2]!.activeTasks[0]!.id, {}, actor);

    // The history cleanup deletes ended instances, cases and their tasks; the counters follow in its transaction.
    await rt.historyCleanup.setTenantDefault(T, 0);
    let removed = 0;
    for (let b = rt.historyCleanup.runBatch(2); b.instances + b.cases; b = rt.historyCleanup.runBatch(2))
      removed += b.instances + b.cases;
    expect(removed).toBe(6); // waits 0–2 and `two` (ended), c1 and c2; `bad`, waits 3 and c3 still run
    expectExact(db);
    const d = rt.dashboard(T, ALL);
    const k = kept(db, T) as typeof ZERO;
    expect([d.runningInstances, d.finishedInstances, d.activeTasks]).toEqual([k.running, k.ended, k.open_tasks]);
    expect(cases.listCases(T, ALL).totalElements).toBe(k.running_cases);
    expect(cases.historyCases(T, ALL).totalElements).toBe(k.ended_cases);

    // The tenant purge deletes every row of tenant-b, its counters' row too, and brings none back.
    const purge = createTenantPurge(kernel);
    while ((await purge(B, 7)) > 0);
    expect(db.query(KEPT).get(B)).toBeNull();
    expectExact(db);
    db.close();
  });

  test("a process killed mid-load leaves counters equal to the rows it committed", async () => {
    const path = tempDbPath();
    const { db, rt, cases } = await open(path);
    await rt.deploy(T, WAIT, { fileName: "w.bpmn", createdBy: null });
    await cases.deploy(T, CASE, { fileName: "r.cmmn", createdBy: null });
    db.close();
    // A child process starts and completes instances and cases in a loop with 8 callers (group commits of several
    // commands) and is killed with SIGKILL while it writes.
    const root = new URL("../../..", import.meta.url).pathname;
    const script = `
      import { openSqlite } from "${root}db/connection";
      import { createProcessRuntime } from "${root}app/runtime/bpmn";
      import { createCaseRuntime } from "${root}app/runtime/cmmn";
      import { createKernel } from "${root}app/runtime/kernel/kernel";
      const db = openSqlite(${JSON.stringify(path)});
      const kernel = createKernel({ db }), rt = createProcessRuntime({ kernel }), cases = createCaseRuntime({ kernel });
      const a = { userId: "u", channel: "REST" };
      let n = 0, said = false;
      await Promise.all(Array.from({ length: 8 }, async () => {
        for (;;) {
          const i = await rt.startInstance("${T}", { definitionKey: "wait" });
          if (n++ % 2) await rt.completeTask("${T}", i.activeTasks[0].id, {}, a);
          const c = await cases.startCase("${T}", { definitionKey: "review" });
          if (n % 3 === 0) await cases.cancelCase("${T}", c.id);
          if (n >= 200 && !said) said = !!console.log("running") || true;
        }
      }));`;
    const child = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
    const reader = child.stdout.getReader();
    const { value } = await reader.read(); // wait until it has written for a while
    expect(new TextDecoder().decode(value)).toContain("running");
    child.kill("SIGKILL");
    await child.exited;
    const after = openSqlite(path);
    expect((truth(after, T) as typeof ZERO).running).toBeGreaterThan(50);
    expect(kept(after, T)).toEqual(truth(after, T) as typeof ZERO);
    after.close();
  }, 30_000);

  test("migration 0016 starts the new counters from the rows already stored", () => {
    const TAG = "0016_kept_counters";
    const dir = join(mkdtempSync(join(tmpdir(), "engine-migrations-")), "engine");
    cpSync(migrationsFolder("engine"), dir, { recursive: true });
    rmSync(join(dir, `${TAG}.sql`));
    const journalPath = join(dir, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
    journal.entries = journal.entries.slice(
      0,
      journal.entries.findIndex((e) => e.tag === TAG),
    );
    writeFileSync(journalPath, JSON.stringify(journal));
    const db = openSqlite(tempDbPath());
    runMigrations(db, "engine", dir);
    // Rows as the runtimes wrote them before: open and finished tasks, running and ended cases, in two tenants.
    const task = db.query(
      `INSERT INTO tasks (id, tenant_id, instance_id, execution_id, activity_id, name, definition_key, definition_id,
       candidate_users, candidate_groups, created, priority, state) VALUES (?, ?, 'i', 'e', 'a', 'A', 'k', 'd', '[]', '[]', 0, 50, ?)`,
    );
    const kase = db.query(
      `INSERT INTO case_instances (id, tenant_id, definition_id, definition_key, version, state, start_time, variables)
       VALUES (?, ?, 'd', 'k', 1, ?, 0, '{}')`,
    );
    const states = ["OPEN", "OPEN", "COMPLETED", "CANCELLED", "OPEN"];
    states.forEach((st, i) => task.run(`t${i}`, i < 4 ? T : B, st));
    ["ACTIVE", "COMPLETED", "TERMINATED", "ACTIVE"].forEach((st, i) => kase.run(`c${i}`, i < 3 ? T : B, st));
    db.run("INSERT INTO instance_counts (tenant_id, running, ended) VALUES (?, 3, 4)", [T]);
    runMigrations(db, "engine");
    expect(kept(db, T)).toEqual({ running: 3, ended: 4, open_tasks: 2, running_cases: 1, ended_cases: 2 });
    expect(kept(db, B)).toEqual({ running: 0, ended: 0, open_tasks: 1, running_cases: 1, ended_cases: 0 });
    // From here on the triggers keep them.
    task.run("t9", T, "OPEN");
    db.run("UPDATE tasks SET state = 'COMPLETED' WHERE id IN ('t0', 't1')");
    db.run("UPDATE case_instances SET state = 'COMPLETED' WHERE id = 'c3'");
    expect(kept(db, T)).toMatchObject({ open_tasks: 1 });
    expect(kept(db, B)).toMatchObject({ running_cases: 0, ended_cases: 1 });
    db.close();
  });
});
