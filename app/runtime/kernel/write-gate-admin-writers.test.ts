import { describe, expect, test } from "bun:test";
import { writeGate } from "../../../db/write-gate";
import { bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { outcome, robotFlow, writtenOnRelease } from "../../../test/fixtures/write-gate";
import { createDecisionStore } from "../dmn/decision-store";

// The administrative writers of the engine database (definitions, instances, failed jobs, decisions, comments,
// retention) wait like the others (write-gate-writers.test.ts) while the checkpointer holds the engine's writes.

const oneTask = (key: string) =>
  bpmn(
    key,
    `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
  );

describe("administrative writers that wait while the checkpointer holds the engine's writes", () => {
  test("a definition's publish, suspension, activation, catalog toggle and configuration", async () => {
    const { rt, db } = makeRuntime();
    const v1 = (await rt.deploy(T, oneTask("p"), { fileName: "a.bpmn", createdBy: null })).definitions[0]!;
    await rt.deploy(T, oneTask("p"), { fileName: "a.bpmn", createdBy: null });
    const def = () => rt.getDefinition(T, "p");
    await writtenOnRelease(
      db,
      () => rt.publishDefinition(T, "p", v1.definitionId),
      () => def().publishedVersion,
    );
    expect(def().publishedVersion).toBe(1);
    await writtenOnRelease(
      db,
      () => rt.suspendDefinition(T, "p"),
      () => def().suspended,
    );
    await writtenOnRelease(
      db,
      () => rt.activateDefinition(T, "p"),
      () => def().suspended,
    );
    await writtenOnRelease(
      db,
      () => rt.toggleDefinition(T, "p"),
      () => def().enabled,
    );
    expect(def().enabled).toBe(false);
    await writtenOnRelease(
      db,
      () => rt.putDefinitionConfig(T, "p", { mcpPolicy: "START_AND_READ", historyTimeToLive: 7 }),
      () => rt.getDefinitionConfig(T, "p"),
    );
    expect(rt.getDefinitionConfig(T, "p")).toMatchObject({ mcpPolicy: "START_AND_READ", historyTimeToLive: 7 });
  });

  test("an instance's suspension and activation, checked as the instance is after the wait", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(T, oneTask("p"), { fileName: "a.bpmn", createdBy: null });
    const { id } = await rt.startInstance(T, { definitionKey: "p" });
    const state = () => rt.getInstance(T, id).state;
    await writtenOnRelease(db, () => rt.suspendInstance(T, id), state);
    expect(state()).toBe("SUSPENDED");
    await writtenOnRelease(db, () => rt.activateInstance(T, id), state);
    expect(state()).toBe("ACTIVE");
    // Cancelled while the suspension waited (its group commit waits for the release too): refused, not suspended.
    const gate = writeGate(db);
    gate.hold();
    const suspended = outcome(rt.suspendInstance(T, id));
    const cancelled = rt.cancelInstance(T, id);
    await Bun.sleep(30);
    gate.release();
    await cancelled;
    expect(await suspended).toMatch(/is cancelled, not active/);
    expect(state()).toBe("CANCELLED");
  });

  test("the job admin's retry and dead-letter", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(T, robotFlow(), { fileName: "r.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "robotFlow" });
    db.run("UPDATE jobs SET state = 'DEADLETTER', retries = 0, exception = 'boom'");
    const [failed] = rt.failedJobs(T);
    const job = () => db.query("SELECT state, retries FROM jobs WHERE id = ?").get(failed.id);
    await writtenOnRelease(db, () => rt.retryJob(T, failed.id), job);
    expect(job()).toEqual({ state: "EXECUTABLE", retries: 3 });
    await writtenOnRelease(db, () => rt.deadletterJob(T, failed.id), job);
    expect(job()).toEqual({ state: "DEADLETTER", retries: 0 });
  });

  test("a DMN deploy and a decision's removal (the decisions table is in the engine database)", async () => {
    const { db, kernel } = makeRuntime();
    const store = createDecisionStore(kernel);
    const file = { xml: "<definitions/>", createdBy: null, sourceTemplate: null, createdAt: new Date().toISOString() };
    const versions = () => store.versions(T, "d").map((v) => v.version);
    await writtenOnRelease(db, () => store.deploy(T, [{ key: "d", name: "D" }], file), versions);
    expect(versions()).toEqual([1]);
    await writtenOnRelease(db, () => store.remove(T, "d"), versions);
    expect(versions()).toEqual([]);
  });

  test("a task comment and the tenant's default history time-to-live", async () => {
    const { rt, db, clock } = makeRuntime();
    await rt.deploy(T, oneTask("p"), { fileName: "a.bpmn", createdBy: null });
    const taskId = (await rt.startInstance(T, { definitionKey: "p" })).activeTasks[0].id;
    const comment = { id: crypto.randomUUID(), tenantId: T, taskId, userId: "u", message: "m", time: clock() };
    await writtenOnRelease(
      db,
      () => rt.addTaskComment(comment),
      () => rt.taskComments(T, taskId).length,
    );
    await writtenOnRelease(
      db,
      () => rt.historyCleanup.setTenantDefault(T, 30),
      () => rt.historyCleanup.tenantDefault(T),
    );
    expect(rt.historyCleanup.tenantDefault(T)).toBe(30);
  });

  test("a comment on a task removed while it waited (history cleanup, a tenant's purge) is refused, not orphaned", async () => {
    const { rt, db, clock } = makeRuntime();
    await rt.deploy(T, oneTask("p"), { fileName: "a.bpmn", createdBy: null });
    const taskId = (await rt.startInstance(T, { definitionKey: "p" })).activeTasks[0].id;
    const comment = { id: crypto.randomUUID(), tenantId: T, taskId, userId: "u", message: "m", time: clock() };
    const rows = () => db.query("SELECT count(*) AS n FROM task_comments").get();
    // Another tenant's task of the same id is no task of this one either.
    const foreign = outcome(rt.addTaskComment({ ...comment, id: crypto.randomUUID(), tenantId: "tenant-b" }));
    expect(await foreign).toMatch(/not found/);
    const gate = writeGate(db);
    gate.hold();
    const added = outcome(rt.addTaskComment(comment));
    db.run("DELETE FROM tasks WHERE id = ?", [taskId]);
    gate.release();
    expect(await added).toMatch(/not found/);
    expect(rows()).toEqual({ n: 0 });
  });
});
