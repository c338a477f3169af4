import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

// A task's variables are those of its own execution and of the scopes around it, the nearest winning; a sibling's
// local variables are not among them (Flowable's TaskService.getVariables).
describe("a task's variables", () => {
  test("each task of a parallel multi-instance sees its own element variable and the instance's, not a sibling's", async () => {
    const { rt } = makeRuntime();
    const body = `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><startEvent id="ss"/><sequenceFlow id="f1" sourceRef="ss" targetRef="review"/>
        <userTask id="review"><multiInstanceLoopCharacteristics flowable:collection="reviewers" flowable:elementVariable="reviewer"/></userTask>
        <sequenceFlow id="f2" sourceRef="review" targetRef="se"/><endEvent id="se"/></subProcess>
      <sequenceFlow id="f3" sourceRef="sub" targetRef="e"/><endEvent id="e"/>`;
    await rt.deploy(T, bpmn("scoped", body), { fileName: "scoped.bpmn", createdBy: null });
    const i = await rt.startInstance(T, {
      definitionKey: "scoped",
      variables: { reviewers: ["ann", "bob"], reviewer: "nobody", amount: 5 },
    });
    const tasks = rt.listTasks(T, ALL, { instanceId: i.id });
    expect(tasks).toHaveLength(2);
    const seen = tasks.map((t) => rt.getTaskVariables(T, t.id));
    // The element variable set on each instance's own execution hides the instance's variable of the same name.
    expect(seen.map((v) => v.reviewer).sort()).toEqual(["ann", "bob"]);
    for (const v of seen) {
      expect(v.amount).toBe(5);
      expect(v.reviewers).toEqual(["ann", "bob"]);
    }
  });

  test("an unknown task is not found", () => {
    const { rt } = makeRuntime();
    expect(() => rt.getTaskVariables(T, "no-such-task")).toThrow(/not found/);
  });
});
