import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ALL, deployFile, item, makeCases, states, T } from "../fixtures/cmmn/harness";

/** The Flowable models these scenarios use, copied into the repository (see the folder's README for the licence). */
const corpus = (rel: string) =>
  readFileSync(join(import.meta.dir, "../fixtures/cmmn/third-party", rel.split("/").pop()!), "utf8");

describe("CMMN timers, process and decision tasks", () => {
  test("a timer listener fires exactly once after a restart, driven by the injected clock", async () => {
    const first = makeCases();
    await deployFile(
      first.rt,
      corpus("flowable/eventlistener/TimerEventListenerTest.testSuspendTimerEventListener.cmmn"),
    );
    const c = await first.rt.startCase(T, { definitionKey: "testSuspendTimerEventListener" });
    expect(first.rt.timersOf(T, c.id)).toEqual([{ elementId: "planItem1", dueAt: "2025-01-06T10:00:00.000Z" }]);
    expect(await first.rt.runDueTimers()).toBe(0);
    first.db.close();

    // restart: a new runtime on the same file, one hour later
    first.clock.advance(60 * 60_000);
    const again = makeCases({ path: first.path, clock: first.clock });
    expect(await again.rt.runDueTimers()).toBe(1);
    expect(await again.rt.runDueTimers()).toBe(0);
    expect(states(again.rt, c.id)).toEqual({ "Timer listener": "COMPLETED", A: "ACTIVE" });
    expect(again.rt.timersOf(T, c.id)).toEqual([]);
  });

  test("a repeating timer (R/PT1H) creates a new listener instance each time it fires", async () => {
    const h = makeCases();
    await deployFile(h.rt, corpus("flowable/itemcontrol/RepetitionRuleTest.testRepeatingTimerWithCategory.cmmn"));
    const c = await h.rt.startCase(T, { definitionKey: "testRepeatingTimer" });
    for (let i = 0; i < 2; i++) {
      h.clock.advance(60 * 60_000);
      expect(await h.rt.runDueTimers()).toBe(1);
    }
    const tasks = h.rt.planItems(T, c.id, { isManager: true }).filter((p) => p.name === "Task after timer");
    expect(tasks.map((t) => t.state).sort()).toEqual(["ACTIVE", "ACTIVE", "WAITING_FOR_REPETITION"]);
    expect(h.rt.timersOf(T, c.id)).toHaveLength(1);
  });

  test("a timer with a start trigger is scheduled only when its trigger occurs, and cancelled by the exit it causes", async () => {
    const h = makeCases();
    await deployFile(h.rt, corpus("flowable/eventlistener/TimerEventListenerTest.testTimerStartTrigger.cmmn"));
    const c = await h.rt.startCase(T, { definitionKey: "testStartTrigger" });
    expect(h.rt.timersOf(T, c.id)).toEqual([]);
    const done = async (name: string) => {
      const t = h.db
        .query("SELECT id FROM tasks WHERE instance_id = ? AND name = ? AND state = 'OPEN'")
        .get(c.id, name) as { id: string };
      await h.rt.completeHumanTask(T, t.id, {}, { userId: "u1", channel: "REST" });
    };
    await done("A");
    await done("B");
    expect(states(h.rt, c.id)).toMatchObject({ Stage: "COMPLETED", C: "ACTIVE" });
    expect(h.rt.timersOf(T, c.id)).toHaveLength(1);
    h.clock.advance(3 * 60 * 60_000);
    await h.rt.runDueTimers();
    expect(states(h.rt, c.id)).toMatchObject({ C: "TERMINATED" });
    expect(h.rt.getCase(T, c.id, ALL).ended).toBe(true);
  });

  test("a blocking process task starts a BPMN instance and completes when that instance ends", async () => {
    const started: Array<{ key: string; parent: unknown }> = [];
    const h = makeCases({
      processes: async (_t, key, _v, parent) => {
        started.push({ key, parent });
        return { id: "proc-1", ended: false };
      },
    });
    await deployFile(h.rt, corpus("flowable-configurator/ProcessTaskTest.testOneTaskProcessBlocking.cmmn"));
    const c = await h.rt.startCase(T, { definitionKey: "myCase" });
    await h.rt.triggerPlanItem(T, c.id, item(h.rt, c.id, "Task One").id, { userId: "u1", channel: "REST" });
    expect(started).toEqual([
      { key: "oneTask", parent: { caseInstanceId: c.id, planItemId: item(h.rt, c.id, "The Process").id } },
    ]);
    expect(states(h.rt, c.id)).toMatchObject({ "The Process": "ACTIVE", "Task Two": "AVAILABLE" });
    expect(await h.rt.onProcessEnded(T, "proc-other", c.id)).toBe(false);
    // A process without a parent is never one a case waits for: answered without a look-up.
    expect(await h.rt.onProcessEnded(T, "proc-1", null)).toBe(false);
    expect(states(h.rt, c.id)).toMatchObject({ "The Process": "ACTIVE" });
    expect(await h.rt.onProcessEnded(T, "proc-1", c.id)).toBe(true);
    expect(states(h.rt, c.id)).toMatchObject({
      "The Process": "COMPLETED",
      "Task Two": "ACTIVE",
      "Process has been called": "COMPLETED",
    });
  });

  test("a non-blocking process task completes as soon as the process has started", async () => {
    const h = makeCases({ processes: async () => ({ id: "p", ended: false }) });
    await deployFile(h.rt, corpus("flowable-configurator/ProcessTaskTest.testOneTaskProcessNonBlocking.cmmn"));
    const c = await h.rt.startCase(T, { definitionKey: "myCase" });
    await h.rt.triggerPlanItem(T, c.id, item(h.rt, c.id, "Task One").id, { userId: "u1", channel: "REST" });
    expect(states(h.rt, c.id)).toMatchObject({ "The Process": "COMPLETED", "Task Two": "ACTIVE" });
  });

  test("a decision task writes its result into the case variables; a failing decision rolls the start back", async () => {
    const xml = `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" targetNamespace="t"><case id="d"><casePlanModel id="p">
      <planItem id="pd" name="Decide" definitionRef="dt"/><decisionTask id="dt" decisionRef="risk"/></casePlanModel></case></definitions>`;
    const h = makeCases({
      decisions: async (_t, key, vars) => {
        if (vars.fail) throw new Error("no such decision");
        return { result: { level: `${key}-high` } };
      },
    });
    await deployFile(h.rt, xml);
    const c = await h.rt.startCase(T, { definitionKey: "d" });
    expect(h.rt.getCase(T, c.id, ALL).variables).toEqual({ level: "risk-high" });
    await expect(h.rt.startCase(T, { definitionKey: "d", variables: { fail: true } })).rejects.toThrow(
      /no such decision/,
    );
    expect(h.rt.listCases(T, ALL, { state: "all" }).totalElements).toBe(1);
  });
});
