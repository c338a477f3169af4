import { expect, test } from "bun:test";
import { describeCorpus } from "../harness/corpora";
import { ALL, completeTaskNamed, item, openTaskIds, states, T } from "../fixtures/cmmn/harness";
import { startFile, trigger, ended } from "./cmmn-corpora.setup";

describeCorpus("cmmn", "CMMN corpus: listeners, completion rules, exits and case tasks", () => {
  test("user event listener orphaned by the stage's completion is ended and the case completes", async () => {
    const { rt, id } = await startFile(
      "flowable/eventlistener/UserEventListenerTest.testCaseWithoutFiringTheEvent.cmmn",
    );
    expect(states(rt, id)).toEqual({ "Stage One": "ACTIVE", "Abort Stage": "AVAILABLE", "Task A": "ACTIVE" });
    await trigger(rt, id, "Task A");
    expect(states(rt, id)).toEqual({ "Stage One": "COMPLETED", "Abort Stage": "TERMINATED", "Task A": "COMPLETED" });
    expect(ended(rt, id)).toBe(true);
  });

  test("user event listener exiting a stage: triggering it ends the stage and the case", async () => {
    const { rt, id } = await startFile(
      "flowable/eventlistener/UserEventListenerTest.testCaseWithoutFiringTheEvent.cmmn",
    );
    expect(item(rt, id, "Abort Stage").actions).toEqual(["TRIGGER"]);
    await trigger(rt, id, "Abort Stage");
    expect(states(rt, id)).toEqual({ "Stage One": "TERMINATED", "Abort Stage": "COMPLETED", "Task A": "TERMINATED" });
    expect(ended(rt, id)).toBe(true);
  });

  test("autoComplete stage ignores an untriggered listener", async () => {
    const { rt, id } = await startFile(
      "flowable/eventlistener/UserEventListenerTest.testAutocompleteStageWithoutFiringTheEvent.cmmn",
    );
    await trigger(rt, id, "Task A");
    expect(ended(rt, id)).toBe(true);
  });

  test("completion neutral: the stage completes although its neutral item still waits", async () => {
    const { h, id, rt } = await startFile("flowable/itemcontrol/CompletionNeutralTest.testSimpleStageCompletion.cmmn");
    expect(states(rt, id)).toMatchObject({
      "manually completed task": "ACTIVE",
      "Completion Neutral Task": "AVAILABLE",
    });
    await completeTaskNamed(h, id, "manually completed task");
    expect(states(rt, id)).toMatchObject({
      "this stage should complete after taskA is completed": "COMPLETED",
      "Completion Neutral Task": "TERMINATED",
    });
    expect(ended(rt, id)).toBe(false);
    await completeTaskNamed(h, id, "Task B is Available waiting for its completion");
    expect(ended(rt, id)).toBe(true);
  });

  test("completion neutral but required: the stage waits for the item", async () => {
    const { h, id, rt } = await startFile("flowable/itemcontrol/CompletionNeutralTest.testRequiredPrecedence.cmmn");
    await completeTaskNamed(h, id, "manually completed task");
    expect(states(rt, id)).toMatchObject({
      "this stage should complete after taskA is completed": "ACTIVE",
      "Completion Neutral Task": "AVAILABLE",
    });
    await completeTaskNamed(h, id, "Task B is Available waiting for its completion");
    expect(states(rt, id)).toMatchObject({ "Completion Neutral Task": "ACTIVE" });
    await completeTaskNamed(h, id, "Completion Neutral Task");
    expect(ended(rt, id)).toBe(true);
  });

  test("event listener bypassed: once the task it could exit is done, the listener is dropped", async () => {
    const { rt, id } = await startFile("flowable/itemcontrol/CompletionNeutralTest.testEventListenerBypassed.cmmn");
    await trigger(rt, id, "manually completed task");
    expect(states(rt, id)).toMatchObject({ "A completion Neutral event listener": "TERMINATED" });
    await trigger(rt, id, "this task keeps alive the plan after the stage completes");
    expect(ended(rt, id)).toBe(true);
  });

  test("an exit triggers another exit (sentry memory)", async () => {
    const { h, id, rt } = await startFile("flowable/runtime/ExitCriteriaTest.testExitTriggersAnotherExit.cmmn");
    await completeTaskNamed(h, id, "A");
    expect(states(rt, id)).toEqual({ A: "COMPLETED", B: "TERMINATED", C: "TERMINATED" });
    expect(ended(rt, id)).toBe(true);
    expect(openTaskIds(h.db, id)).toEqual([]);
  });

  test("trigger mode onEvent: events of one command combine, the if-part decides", async () => {
    const off = await startFile("flowable/sentry/TriggerModeSentryTest.testExitTriggersAnotherExit.cmmn", {
      var: false,
    });
    await completeTaskNamed(off.h, off.id, "A");
    expect(states(off.rt, off.id)).toEqual({ A: "COMPLETED", B: "ACTIVE", C: "ACTIVE" });
    await off.rt.setVariables(T, off.id, { var: true });
    expect(states(off.rt, off.id)).toEqual({ A: "COMPLETED", B: "ACTIVE", C: "ACTIVE" });
    const on = await startFile("flowable/sentry/TriggerModeSentryTest.testExitTriggersAnotherExit.cmmn", { var: true });
    await completeTaskNamed(on.h, on.id, "A");
    expect(states(on.rt, on.id)).toEqual({ A: "COMPLETED", B: "TERMINATED", C: "TERMINATED" });
  });

  test("exit criteria with several on-parts chain through exit events", async () => {
    const { rt, id } = await startFile(
      "flowable/runtime/ExitCriteriaTest.testSimpleExitCriteriaWithMultipleOnParts2.cmmn",
    );
    await trigger(rt, id, "A");
    expect(states(rt, id)).toMatchObject({ C: "ACTIVE", D: "ACTIVE" });
    await trigger(rt, id, "B");
    expect(states(rt, id)).toEqual({
      A: "COMPLETED",
      B: "COMPLETED",
      C: "TERMINATED",
      D: "TERMINATED",
      E: "TERMINATED",
    });
    expect(ended(rt, id)).toBe(true);
  });

  test("blocking case task: the parent waits for the child case, which ends with its human task", async () => {
    const { h, id, rt } = await startFile("flowable/runtime/CaseTaskTest.testSimpleBlockingSubCase.cmmn", {}, [
      "flowable/runtime/CaseTaskTest.testSimpleBlockingSubCaseChildCase.cmmn",
    ]);
    expect(states(rt, id)).toEqual({ "Case Task": "ACTIVE" });
    const child = rt.listCases(T, ALL, { definitionKey: "endCase" }).content[0];
    expect(child.parentInstanceId).toBe(id);
    await completeTaskNamed(h, child.id, "Human Task");
    expect(ended(rt, child.id)).toBe(true);
    expect(states(rt, id)).toEqual({ "Case Task": "COMPLETED" });
    expect(ended(rt, id)).toBe(true);
  });

  test("non-blocking case task completes at once and leaves the child case running", async () => {
    const { id, rt } = await startFile(
      "flowable/runtime/CaseTaskTest.testRuntimeServiceTriggerNonBlockingCasePlanItem.cmmn",
      {},
      ["flowable/runtime/oneTaskCase.cmmn"],
    );
    expect(states(rt, id)).toEqual({ "Task One": "ACTIVE", "The Case": "COMPLETED" });
    expect(rt.listCases(T, ALL, { definitionKey: "oneTaskCase" }).content[0].parentInstanceId).toBeNull();
  });

  test("plan fragments have no runtime state: their items belong to the enclosing stage", async () => {
    const { rt, id } = await startFile("flowable/runtime/PlanFragmentTest.testEmptyPlanFragments.cmmn.xml");
    const s = states(rt, id);
    expect(s.A).toBe("ACTIVE");
    expect(Object.keys(s)).not.toContain("expandedPlanFragment1");
  });

  test("case completion with child items: manual and ignored items do not keep the autoComplete case open", async () => {
    const { h, id, rt } = await startFile("flowable/runtime/Case_Completion_With_Child_Items_Test.cmmn.xml");
    expect(states(rt, id)).toMatchObject({
      "Stage A": "ACTIVE",
      "Manual task": "ENABLED",
      "Ignored task": "ACTIVE",
      "Ignore after first completion task": "ACTIVE",
    });
    await completeTaskNamed(h, id, "Task A");
    expect(ended(rt, id)).toBe(false);
    await completeTaskNamed(h, id, "Ignore after first completion task");
    expect(ended(rt, id)).toBe(true);
  });
});
