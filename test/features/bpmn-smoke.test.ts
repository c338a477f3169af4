import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

const simple = bpmn(
  "simple",
  `
  <startEvent id="start"/>
  <sequenceFlow id="f1" sourceRef="start" targetRef="task"/>
  <userTask id="task" name="Review" flowable:assignee="kermit" flowable:candidateGroups="reviewers" flowable:formKey="review"/>
  <sequenceFlow id="f2" sourceRef="task" targetRef="end"/>
  <endEvent id="end"/>`,
);

describe("BPMN runtime smoke", () => {
  test("a process with one user task starts, waits on the task and ends when it is completed", async () => {
    const { rt } = makeRuntime();
    const d = await rt.deploy(T, simple, { fileName: "simple.bpmn", createdBy: "u1" });
    expect(d.definitions).toEqual([
      { key: "simple", definitionId: expect.any(String), version: 1, name: "simple", type: "BPMN" },
    ]);
    const inst = await rt.startInstance(T, {
      definitionKey: "simple",
      businessKey: "BK-1",
      variables: { a: 1 },
      startedBy: "u1",
      channel: "REST",
    });
    expect(inst.ended).toBe(false);
    expect(inst.activeTasks).toHaveLength(1);
    expect(inst.activeTasks[0]).toMatchObject({
      name: "Review",
      activityId: "task",
      assignee: "kermit",
      formKey: "review",
      candidateGroups: ["reviewers"],
    });
    await rt.completeTask(T, inst.activeTasks[0].id, { ok: true }, { userId: "kermit", channel: "REST" });
    const after = rt.getInstance(T, inst.id);
    expect(after.ended).toBe(true);
    expect(after.variables).toEqual({ a: 1, ok: true });
    const acts = rt.historyActivities(T, inst.id);
    expect(acts.map((a) => a.activityId)).toEqual(["start", "task", "end"]);
    expect(acts[1]).toMatchObject({ who: "kermit", channel: "REST" });
    expect(rt.listTasks(T, ALL)).toHaveLength(0);
  });
});
