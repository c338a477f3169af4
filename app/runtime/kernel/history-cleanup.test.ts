import { describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { ALL, bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { writeGate } from "../../../db/write-gate";
import { createCleanupLoop } from "../../platform/history-cleanup";

const DAY = 86_400_000;
const oneTask = (id: string) =>
  bpmn(
    id,
    `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
     <userTask id="t" name="Review" flowable:candidateGroups="g"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/>
     <endEvent id="e"/>`,
  );
// Every engine table keyed by instance (or by its tasks): all of them must lose the rows of a removed instance.
const KEYED = ["process_instances", "activity_log", "variables", "executions", "involvements", "tasks", "jobs"];
const rowsOf = (db: Database, id: string) =>
  Object.fromEntries(
    KEYED.map((t) => [
      t,
      (
        db
          .query(`SELECT COUNT(*) AS c FROM ${t} WHERE ${t === "process_instances" ? "id" : "instance_id"} = ?`)
          .get(id) as {
          c: number;
        }
      ).c,
    ]),
  );
const taskRows = (db: Database, table: string) =>
  (db.query(`SELECT COUNT(*) AS c FROM ${table}`).get() as { c: number }).c;

async function setup() {
  const r = makeRuntime();
  await r.rt.deploy(T, oneTask("keep"), { fileName: "a.bpmn", createdBy: "u" });
  await r.rt.deploy(T, oneTask("short"), { fileName: "b.bpmn", createdBy: "u" });
  await r.rt.deploy("tenant-b", oneTask("short"), { fileName: "b.bpmn", createdBy: "u" });
  const start = (tenant: string, key: string) =>
    r.rt.startInstance(tenant, { definitionKey: key, variables: { n: 1 }, startedBy: "u", channel: "REST" });
  const finish = async (tenant: string, key: string) => {
    const i = await start(tenant, key);
    const task = i.activeTasks[0] as { id: string };
    await r.rt.addTaskComment({
      id: crypto.randomUUID(),
      tenantId: tenant,
      taskId: task.id,
      userId: "u",
      message: "m",
      time: r.clock(),
    });
    await r.rt.completeTask(tenant, task.id, { done: true }, { userId: "u", channel: "REST" });
    return i.id;
  };
  return { ...r, start, finish };
}

describe("history cleanup", () => {
  test("removes exactly the expired ended instances of keys with a TTL, with all their rows, nothing running", async () => {
    const { rt, db, clock, start, finish } = await setup();
    const endedShort = [await finish(T, "short"), await finish(T, "short"), await finish(T, "short")];
    const endedKeep = await finish(T, "keep");
    const otherTenant = await finish("tenant-b", "short");
    const running = (await start(T, "short")).id;
    expect(rowsOf(db, endedShort[0] as string).activity_log).toBeGreaterThan(0);
    await rt.putDefinitionConfig(T, "short", { historyTimeToLive: 2 });
    const cleanup = rt.historyCleanup;

    clock.advance(DAY); // not yet expired
    expect(cleanup.runBatch(100).instances).toBe(0);
    clock.advance(2 * DAY);
    expect(cleanup.backlog()).toBe(3);
    const batch = cleanup.runBatch(100);
    expect(batch.instances).toBe(3);
    expect(batch.byTenant.get(T)?.sort()).toEqual([...endedShort].sort());
    for (const id of endedShort) expect(Object.values(rowsOf(db, id))).toEqual(KEYED.map(() => 0));
    // The comments and candidates of the removed tasks went with them; the others' are still there.
    expect(taskRows(db, "task_comments")).toBe(2);
    expect(Object.values(rowsOf(db, endedKeep)).every((n) => n >= 0)).toBe(true);
    expect(rowsOf(db, endedKeep).process_instances).toBe(1);
    expect(rowsOf(db, otherTenant).process_instances).toBe(1); // tenant-b set no TTL
    expect(rowsOf(db, running).process_instances).toBe(1);
    expect(rt.getInstance(T, running).ended).toBe(false);
    // The counters moved in the same transaction: the dashboard reads them, never counts.
    expect(rt.dashboard(T, ALL)).toMatchObject({ runningInstances: 1, finishedInstances: 1 });
    expect(cleanup.runBatch(100).instances).toBe(0);
  });

  test("the tenant default applies to keys without their own TTL; 0 removes at once; a key's own TTL wins", async () => {
    const { rt, db, clock, finish } = await setup();
    const a = await finish(T, "keep");
    const b = await finish(T, "short");
    await rt.historyCleanup.setTenantDefault(T, 0);
    await rt.putDefinitionConfig(T, "short", { historyTimeToLive: 30 });
    expect(rt.historyCleanup.tenantDefault(T)).toBe(0);
    clock.advance(1);
    expect(rt.historyCleanup.runBatch(10).instances).toBe(1);
    expect(rowsOf(db, a).process_instances).toBe(0);
    expect(rowsOf(db, b).process_instances).toBe(1);
    await rt.historyCleanup.setTenantDefault(T, null);
    expect(rt.historyCleanup.tenantDefault(T)).toBeNull();
  });

  test("works in batches of the given size, oldest first", async () => {
    const { rt, clock, finish } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(await finish(T, "short"));
      clock.advance(1000);
    }
    await rt.putDefinitionConfig(T, "short", { historyTimeToLive: 0 });
    const sizes: number[] = [];
    const order: string[] = [];
    for (let b = rt.historyCleanup.runBatch(3); b.instances; b = rt.historyCleanup.runBatch(3)) {
      sizes.push(b.instances);
      order.push(...(b.byTenant.get(T) ?? []));
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(order).toEqual(ids);
  });

  test("the off-peak loop waits while the checkpointer holds the engine's writes, and goes on once released", async () => {
    const { rt, db, clock, finish } = await setup();
    for (let i = 0; i < 3; i++) await finish(T, "short");
    clock.advance(1000);
    await rt.putDefinitionConfig(T, "short", { historyTimeToLive: 0 });
    const batches: number[] = [];
    const loop = createCleanupLoop({
      cleanup: rt.historyCleanup,
      settings: { window: null, batchSize: 2 },
      now: () => 0,
      onBatch: (b) => batches.push(b.instances),
      log: () => {},
    });
    const gate = writeGate(db);
    gate.hold();
    const run = loop.runNow();
    await Bun.sleep(20);
    expect(batches).toEqual([]); // nothing written while held
    gate.release();
    expect(await run).toBe(3);
    expect(batches).toEqual([2, 1]);
  });

  test("a batch that fails midway leaves every instance whole; the next run finishes the work", async () => {
    const { rt, db, clock, finish } = await setup();
    const ids = [await finish(T, "short"), await finish(T, "short"), await finish(T, "short")];
    await rt.putDefinitionConfig(T, "short", { historyTimeToLive: 0 });
    clock.advance(1);
    const before = ids.map((id) => rowsOf(db, id));
    // A crash while the third instance is removed (its rows partly deleted inside the same transaction).
    db.exec(
      `CREATE TEMP TRIGGER crash BEFORE DELETE ON process_instances WHEN old.id = '${ids[2]}' BEGIN SELECT RAISE(ABORT, 'crash'); END`,
    );
    expect(() => rt.historyCleanup.runBatch(10)).toThrow("crash");
    expect(ids.map((id) => rowsOf(db, id))).toEqual(before);
    db.exec("DROP TRIGGER crash");
    expect(rt.historyCleanup.runBatch(10).instances).toBe(3);
    for (const id of ids) expect(rowsOf(db, id).process_instances).toBe(0);
    expect(rt.historyCleanup.runBatch(10).instances).toBe(0);
  });

  test("TTL values are checked: whole days from 0 to 36500 or null", async () => {
    const { rt } = await setup();
    for (const bad of [-1, 1.5, 36_501, Number.NaN])
      await expect(rt.putDefinitionConfig(T, "short", { historyTimeToLive: bad })).rejects.toThrow(/historyTimeToLive/);
    expect(rt.getDefinitionConfig(T, "short").historyTimeToLive).toBeNull();
    expect((await rt.putDefinitionConfig(T, "short", { historyTimeToLive: 36_500 })).historyTimeToLive).toBe(36_500);
    expect((await rt.putDefinitionConfig(T, "short", { historyTimeToLive: null })).historyTimeToLive).toBeNull();
  });
});
