import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { setBusyTimeout } from "../../../db/connection";
import { writeGate } from "../../../db/write-gate";
import { bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { cmmn, makeCases } from "../../../test/fixtures/cmmn/harness";
import { outcome, robotFlow, writtenOnRelease } from "../../../test/fixtures/write-gate";

// While the checkpointer holds the engine's writes (the WAL's last frames being copied, or a TRUNCATE), a writer that
// can await waits for the release rather than for SQLite's lock in the busy handler, which would stall the event loop.
describe("writers that wait while the checkpointer holds the engine's writes", () => {
  test("a BPMN deploy is written only once the writes are released", async () => {
    const { rt, db } = makeRuntime();
    const gate = writeGate(db);
    gate.hold();
    let done = false;
    const deploy = rt
      .deploy(T, bpmn("held", '<startEvent id="s"/>'), { fileName: "h.bpmn", createdBy: null })
      .then(() => (done = true));
    await Bun.sleep(30);
    expect(done).toBe(false);
    expect(rt.listDefinitions(T)).toEqual([]);
    gate.release();
    await deploy;
    expect(rt.listDefinitions(T).map((d) => d.key)).toEqual(["held"]);
  });

  test("a CMMN deploy likewise", async () => {
    const h = makeCases();
    const gate = writeGate(h.db);
    gate.hold();
    let done = false;
    const model = cmmn("heldCase", '<planItem id="pi" definitionRef="m"/><milestone id="m" name="M"/>');
    const deploy = h.rt.deploy(T, model, { fileName: "h.cmmn", createdBy: null }).then(() => (done = true));
    await Bun.sleep(30);
    expect(done).toBe(false);
    expect(h.db.query("SELECT count(*) AS n FROM definitions").get()).toEqual({ n: 0 });
    gate.release();
    await deploy;
    expect(h.db.query("SELECT count(*) AS n FROM definitions").get()).toEqual({ n: 1 });
  });

  test("a claim, an unclaim and a delegation are written only once the writes are released", async () => {
    const { rt, db } = makeRuntime();
    const model = bpmn(
      "claims",
      `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
      <userTask id="t" flowable:candidateUsers="ann,bob"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
    );
    await rt.deploy(T, model, { fileName: "c.bpmn", createdBy: null });
    const taskId = (await rt.startInstance(T, { definitionKey: "claims" })).activeTasks[0].id;
    const gate = writeGate(db);
    const assignee = () => rt.getTask(T, taskId).assignee;
    await writtenOnRelease(db, () => rt.claim(T, taskId, "ann"), assignee);
    expect(assignee()).toBe("ann");
    await writtenOnRelease(db, () => rt.unclaim(T, taskId), assignee);
    expect(assignee()).toBeNull();
    await writtenOnRelease(db, () => rt.delegate(T, taskId, "bob", "ann"), assignee);
    expect(assignee()).toBe("bob");
    // What changed during the wait is checked again: a task claimed meanwhile is refused, not taken over.
    gate.hold();
    const late = outcome(rt.claim(T, taskId, "bob"));
    const completion = rt.completeTask(T, taskId, {}, { userId: "bob", channel: "REST" });
    await Bun.sleep(30); // the completion's group commit waits for the release as well
    gate.release();
    await completion;
    expect(await late).toMatch(/already completed/);
  });

  test("a robot's fetch locks its job only once the writes are released; a fetch that finds nothing takes no write lock", async () => {
    const { rt, db, path, kernel } = makeRuntime();
    await rt.deploy(T, robotFlow(), { fileName: "r.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "robotFlow" });
    const external = kernel.external;
    const fetch = (topic: string) =>
      external.fetchAndLock(
        { tenantId: T, owner: "runner:1", topics: [topic], maxTasks: 1, lockMs: { [topic]: 60_000 } },
        0,
      );
    const locked = () => db.query("SELECT count(*) AS n FROM jobs WHERE lock_owner IS NOT NULL").get();
    const gate = writeGate(db);
    gate.hold();
    const fetched = fetch("crm");
    await Bun.sleep(30);
    expect(locked()).toEqual({ n: 0 });
    gate.release();
    expect(await fetched).toHaveLength(1);
    expect(locked()).toEqual({ n: 1 });
    // Another writer holds the lock: a claim's BEGIN IMMEDIATE would fail at once with busy timeout 0.
    const other = new Database(path);
    other.run("BEGIN IMMEDIATE");
    setBusyTimeout(db, 0);
    try {
      expect(await fetch("crm")).toEqual([]); // its only job is locked by runner:1
      expect(await fetch("other-topic")).toEqual([]);
    } finally {
      other.run("ROLLBACK");
      other.close();
    }
  });

  test("a robot's extend, failure and release are written only once the writes are released, and find the lock as it is then", async () => {
    const { rt, db, clock, kernel } = makeRuntime();
    await rt.deploy(T, robotFlow(), { fileName: "r.bpmn", createdBy: null });
    for (let i = 0; i < 3; i++) await rt.startInstance(T, { definitionKey: "robotFlow" });
    const external = kernel.external;
    const fetch = (maxTasks: number) =>
      external.fetchAndLock({ tenantId: T, owner: "runner:1", topics: ["crm"], maxTasks, lockMs: { crm: 60_000 } }, 0);
    const [a, b] = await fetch(2);
    const job = (id: string) =>
      db.query("SELECT state, retries, lock_owner, lock_expires_at FROM jobs WHERE id = ?").get(id) as Record<
        string,
        unknown
      >;
    await writtenOnRelease(
      db,
      () => external.extendLock(T, "runner:1", a.id, 120_000),
      () => job(a.id),
    );
    expect(job(a.id).lock_expires_at).toBe(clock() + 120_000);
    await writtenOnRelease(
      db,
      () => external.fail(T, "runner:1", a.id, { message: "boom", retries: 0 }),
      () => job(a.id),
    );
    expect(job(a.id)).toMatchObject({ state: "DEADLETTER", lock_owner: null });
    await writtenOnRelease(
      db,
      () => external.releaseOwner("runner:1"),
      () => job(b.id),
    );
    expect(job(b.id).lock_owner).toBeNull();
    const gate = writeGate(db);
    // The lock is checked after the wait: one that expired and was taken by another runner meanwhile is refused.
    const [c] = await fetch(1);
    gate.hold();
    const extended = outcome(external.extendLock(T, "runner:1", c.id, 1_000));
    const failed = outcome(external.fail(T, "runner:1", c.id, { message: "late" }));
    db.run("UPDATE jobs SET lock_owner = 'runner:2' WHERE id = ?", [c.id]);
    gate.release();
    expect(await extended).toMatch(/not locked by this runner/);
    expect(await failed).toMatch(/not locked by this runner/);
    expect(job(c.id)).toMatchObject({ state: "EXECUTABLE", lock_owner: "runner:2", retries: 3 });
  });
});
