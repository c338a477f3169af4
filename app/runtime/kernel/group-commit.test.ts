import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";

const oneTask = bpmn(
  "one",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/><sequenceFlow id="f1" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
);
const actor = { userId: "u1", channel: "REST" };

describe("group commit of concurrent commands", () => {
  test("commands finishing together commit together, and a conflicting one fails alone without undoing the others", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(T, oneTask, { fileName: "one.bpmn", createdBy: null });
    const started = await Promise.all(Array.from({ length: 20 }, () => rt.startInstance(T, { definitionKey: "one" })));
    expect(rt.listInstances(T, ALL).totalElements).toBe(20);
    const task = started[0].activeTasks[0].id;
    // Two completions of one task and 19 new starts in the same turn: the second completion meets the first one's revision.
    const outcomes = await Promise.allSettled([
      rt.completeTask(T, task, { n: 1 }, actor),
      rt.completeTask(T, task, { n: 2 }, actor),
      ...Array.from({ length: 19 }, () => rt.startInstance(T, { definitionKey: "one" })),
    ]);
    const [a, b, ...starts] = outcomes;
    expect([a.status, b.status].sort()).toEqual(["fulfilled", "rejected"]);
    expect(starts.every((o) => o.status === "fulfilled")).toBe(true);
    expect(rt.getTask(T, task).state).toBe("COMPLETED");
    expect(rt.getInstance(T, started[0].id).ended).toBe(true);
    expect(rt.historyInstances(T, ALL).totalElements).toBe(1);
    expect(rt.listInstances(T, ALL).totalElements).toBe(38);
    expect((db.query("SELECT COUNT(*) AS c FROM tasks WHERE state = 'OPEN'").get() as { c: number }).c).toBe(38);
  });
});
