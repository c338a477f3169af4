import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { ALL, bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { cmmn } from "../../../test/fixtures/cmmn/harness";
import { createCaseRuntime } from "../cmmn";

const DAY = 86_400_000;
const twoTasks = (id: string) =>
  cmmn(
    id,
    `<planItem id="piA" name="A" definitionRef="a"/><planItem id="piB" name="B" definitionRef="b"/>
     <humanTask id="a" name="A" flowable:candidateGroups="g"/><humanTask id="b" name="B" flowable:assignee="u"/>`,
  );
// Every engine table a case has rows in (directly or through its tasks): all of them must lose a removed case's rows.
const KEYED: Record<string, string> = {
  case_instances: "SELECT COUNT(*) AS c FROM case_instances WHERE id = ?",
  case_plan_items: "SELECT COUNT(*) AS c FROM case_plan_items WHERE case_instance_id = ?",
  tasks: "SELECT COUNT(*) AS c FROM tasks WHERE instance_id = ?",
  involvements: "SELECT COUNT(*) AS c FROM involvements WHERE instance_id = ?",
  task_candidates:
    "SELECT COUNT(*) AS c FROM task_candidates WHERE task_id IN (SELECT id FROM tasks WHERE instance_id = ?)",
  task_comments:
    "SELECT COUNT(*) AS c FROM task_comments WHERE task_id IN (SELECT id FROM tasks WHERE instance_id = ?)",
};
const rowsOf = (db: Database, id: string) =>
  Object.fromEntries(Object.entries(KEYED).map(([t, sql]) => [t, (db.query(sql).get(id) as { c: number }).c]));
const count = (db: Database, table: string) =>
  (db.query(`SELECT COUNT(*) AS c FROM ${table}`).get() as { c: number }).c;

async function setup() {
  const r = makeRuntime();
  const cases = createCaseRuntime({ kernel: r.kernel });
  for (const tenant of [T, "tenant-b"]) {
    await cases.deploy(tenant, twoTasks("shortCase"), { fileName: "s.cmmn", createdBy: "u" });
    await cases.deploy(tenant, twoTasks("keepCase"), { fileName: "k.cmmn", createdBy: "u" });
  }
  await r.rt.deploy(
    T,
    bpmn("flat", `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e"/>`),
    {
      fileName: "f.bpmn",
      createdBy: "u",
    },
  );
  const start = (tenant: string, key: string) =>
    cases.startCase(tenant, { definitionKey: key, variables: { n: 1 }, startedBy: "u", channel: "REST" });
  /** A case whose two tasks are completed (a comment on the first), so it ends COMPLETED. */
  const finish = async (tenant: string, key: string) => {
    const c = await start(tenant, key);
    for (const [i, task] of c.activeTasks.entries()) {
      if (i === 0)
        await r.rt.addTaskComment({
          id: crypto.randomUUID(),
          tenantId: tenant,
          taskId: task.id,
          userId: "u",
          message: "m",
          time: r.clock(),
        });
      await cases.completeHumanTask(tenant, task.id, { done: true }, { userId: "u", channel: "REST" });
    }
    expect(cases.getCase(tenant, c.id).ended).toBe(true);
    return c.id;
  };
  return { ...r, cases, start, finish };
}

describe("history cleanup of cases", () => {
  test("removes exactly the expired ended cases of keys with a TTL, with their plan items, tasks and comments", async () => {
    const { rt, db, clock, cases, start, finish } = await setup();
    const ended = [await finish(T, "shortCase"), await finish(T, "shortCase")];
    const cancelled = (await start(T, "shortCase")).id;
    await cases.cancelCase(T, cancelled);
    const kept = await finish(T, "keepCase");
    const otherTenant = await finish("tenant-b", "shortCase");
    const running = (await start(T, "shortCase")).id;
    expect(rowsOf(db, ended[0] as string)).toMatchObject({ case_plan_items: 3, tasks: 2, task_comments: 1 });
    await rt.putDefinitionConfig(T, "shortCase", { historyTimeToLive: 2 });

    clock.advance(DAY); // not yet expired
    expect(rt.historyCleanup.runBatch(100)).toMatchObject({ instances: 0, cases: 0 });
    clock.advance(2 * DAY);
    expect(rt.historyCleanup.backlog()).toBe(3);
    const batch = rt.historyCleanup.runBatch(100);
    expect(batch).toMatchObject({ instances: 0, cases: 3 });
    expect(batch.byTenant.get(T)?.sort()).toEqual([...ended, cancelled].sort());
    for (const id of [...ended, cancelled])
      expect(Object.values(rowsOf(db, id))).toEqual(Object.keys(KEYED).map(() => 0));
    expect(rowsOf(db, kept)).toMatchObject({ case_instances: 1, task_comments: 1 });
    expect(rowsOf(db, otherTenant).case_instances).toBe(1); // tenant-b set no TTL
    expect(rowsOf(db, running)).toMatchObject({ case_instances: 1, tasks: 2 });
    expect(cases.getCase(T, running).ended).toBe(false);
    // The kept totals moved in the same transaction: lists and the dashboard read them, never count.
    expect(cases.historyCases(T, ALL).totalElements).toBe(1);
    expect(cases.listCases(T, ALL).totalElements).toBe(1);
    expect(rt.historyCleanup.runBatch(100).cases).toBe(0);
  });

  test("the tenant default covers case keys too; processes and cases share the batch size, oldest first per key", async () => {
    const { rt, clock, finish } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(await finish(T, "keepCase"));
      clock.advance(1000);
    }
    await rt.startInstance(T, { definitionKey: "flat" });
    await rt.startInstance(T, { definitionKey: "flat" });
    await rt.historyCleanup.setTenantDefault(T, 0);
    clock.advance(1);
    const sizes: number[] = [];
    const order: string[] = [];
    for (let b = rt.historyCleanup.runBatch(3); b.instances + b.cases; b = rt.historyCleanup.runBatch(3)) {
      sizes.push(b.instances + b.cases);
      order.push(...(b.byTenant.get(T) ?? []));
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(order.filter((id) => ids.includes(id))).toEqual(ids);
  });

  test("a process a running case started is kept until the case ends; a child case likewise", async () => {
    const { rt, db, clock, cases, start } = await setup();
    await cases.deploy(T, twoTasks("childCase"), { fileName: "c.cmmn", createdBy: "u" });
    await cases.deploy(
      T,
      cmmn(
        "parentCase",
        `<planItem id="piA" name="A" definitionRef="a"/><planItem id="piC" name="C" definitionRef="c"/>
         <humanTask id="a" name="A"/><caseTask id="c" caseRef="childCase" isBlocking="true"/>`,
      ),
      { fileName: "p.cmmn", createdBy: "u" },
    );
    const parent = (await start(T, "keepCase")).id;
    // What a non-blocking process task of the case leaves behind: an ended process whose parent is the case.
    const child = await rt.startInstance(T, { definitionKey: "flat", parentCaseId: parent });
    expect(child.ended).toBe(true);
    // A blocking case task whose child case ended while the parent case still runs.
    const parentCase = (await start(T, "parentCase")).id;
    const childCase = db
      .query<{ id: string }, [string]>("SELECT id FROM case_instances WHERE parent_case_id = ?")
      .get(parentCase)!.id;
    for (const t of cases.getCase(T, childCase).activeTasks)
      await cases.completeHumanTask(T, t.id, {}, { userId: "u", channel: "REST" });
    expect(cases.getCase(T, childCase).ended).toBe(true);
    expect(cases.getCase(T, parentCase).ended).toBe(false);
    await rt.historyCleanup.setTenantDefault(T, 0);
    await rt.putDefinitionConfig(T, "keepCase", { historyTimeToLive: 30 });
    await rt.putDefinitionConfig(T, "parentCase", { historyTimeToLive: 30 });
    clock.advance(1);
    expect(rt.historyCleanup.runBatch(10)).toMatchObject({ instances: 0, cases: 0 });
    await cases.cancelCase(T, parent);
    await cases.cancelCase(T, parentCase);
    clock.advance(1);
    expect(rt.historyCleanup.runBatch(10)).toMatchObject({ instances: 1, cases: 1 });
    expect(count(db, "process_instances")).toBe(0);
    expect(
      cases
        .historyCases(T, ALL)
        .content.map((c) => c.id)
        .sort(),
    ).toEqual([parent, parentCase].sort());
  });

  test("a batch that fails midway leaves every case whole; the next run finishes the work", async () => {
    const { rt, db, clock, finish } = await setup();
    const ids = [await finish(T, "shortCase"), await finish(T, "shortCase"), await finish(T, "shortCase")];
    await rt.putDefinitionConfig(T, "shortCase", { historyTimeToLive: 0 });
    clock.advance(1);
    const before = ids.map((id) => rowsOf(db, id));
    const totals = () => db.query("SELECT * FROM instance_counts WHERE tenant_id = ?").get(T);
    const counted = totals();
    db.exec(
      `CREATE TEMP TRIGGER crash BEFORE DELETE ON case_instances WHEN old.id = '${ids[2]}' BEGIN SELECT RAISE(ABORT, 'crash'); END`,
    );
    expect(() => rt.historyCleanup.runBatch(10)).toThrow("crash");
    expect(ids.map((id) => rowsOf(db, id))).toEqual(before);
    expect(totals()).toEqual(counted);
    db.exec("DROP TRIGGER crash");
    expect(rt.historyCleanup.runBatch(10).cases).toBe(3);
    for (const id of ids) expect(rowsOf(db, id).case_instances).toBe(0);
    expect(rt.historyCleanup.runBatch(10).cases).toBe(0);
  });
});
