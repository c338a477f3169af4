import { expect, test } from "bun:test";
import { describeCorpus } from "../harness/corpora";
import { ALL, actor, completeTaskNamed, CORPUS, corpus, makeCases, states, T } from "../fixtures/cmmn/harness";
import { walk, REFUSED, startFile, trigger, ended } from "./cmmn-corpora.setup";

describeCorpus("cmmn", "CMMN corpus", () => {
  test("every corpus file deploys, or is refused with a message naming the problem", async () => {
    const files = walk(CORPUS)
      .filter((f) => /\.cmmn(\.xml)?$/.test(f))
      .map((f) => f.slice(CORPUS.length + 1));
    expect(files.length).toBeGreaterThan(40);
    const { rt } = makeCases();
    for (const f of files) {
      const expected = REFUSED[f];
      if (expected)
        await expect(rt.deploy(T, corpus(f), { fileName: f, createdBy: null }), f).rejects.toMatchObject({
          code: "BAD_REQUEST",
          message: expect.stringMatching(expected),
        });
      else expect((await rt.deploy(T, corpus(f), { fileName: f, createdBy: null })).definitions[0].type).toBe("CMMN");
    }
  });

  test("oneTaskCase: a blocking task waits for its trigger, then the case completes", async () => {
    const { rt, id } = await startFile("flowable/runtime/oneTaskCase.cmmn");
    expect(states(rt, id)).toEqual({ "The Task": "ACTIVE" });
    await trigger(rt, id, "The Task");
    expect(states(rt, id)).toEqual({ "The Task": "COMPLETED" });
    expect(ended(rt, id)).toBe(true);
  });

  test("one-human-task-model: the human task lands in the task table assigned to johnDoe", async () => {
    const { h, id, c } = await startFile("flowable/one-human-task-model.cmmn");
    expect(c.activeTasks).toEqual([
      expect.objectContaining({ name: "The Task", assignee: "johnDoe", activityId: "planItem1" }),
    ]);
    await completeTaskNamed(h, id, "The Task");
    expect(ended(h.rt, id)).toBe(true);
    expect(h.rt.historyCase(T, id, ALL).tasks[0]).toMatchObject({ state: "COMPLETED", completedBy: "u1" });
  });

  test("passthrough case: non-blocking tasks and both milestones complete during the start", async () => {
    const { rt, id, c } = await startFile("flowable/runtime/RuntimeServiceTest.testStartSimplePassthroughCase.cmmn");
    expect(c.ended).toBe(true);
    expect(Object.values(states(rt, id))).toEqual(["COMPLETED", "COMPLETED", "COMPLETED", "COMPLETED"]);
    expect(rt.milestones(T, id, ALL).map((m) => m.elementId)).toEqual(["planItemMileStoneOne", "planItemMileStoneTwo"]);
  });

  test("passthrough with blocking tasks: each trigger moves the case one milestone further", async () => {
    const { rt, id } = await startFile(
      "flowable/runtime/RuntimeServiceTest.testStartSimplePassthroughCaseWithBlockingTask.cmmn",
    );
    expect(states(rt, id)).toEqual({
      "Task A": "ACTIVE",
      "PlanItem Milestone One": "AVAILABLE",
      "Task B": "AVAILABLE",
      "PlanItem Milestone Two": "AVAILABLE",
    });
    await trigger(rt, id, "Task A");
    expect(states(rt, id)).toEqual({
      "Task A": "COMPLETED",
      "PlanItem Milestone One": "COMPLETED",
      "Task B": "ACTIVE",
      "PlanItem Milestone Two": "AVAILABLE",
    });
    await trigger(rt, id, "Task B");
    expect(ended(rt, id)).toBe(true);
  });

  test("three nested stages: stage B enters on A and B, exits on C, and the case completes", async () => {
    const { rt, id } = await startFile("flowable/runtime/StageTest.testThreeNestedStagesWithCriteria.cmmn");
    expect(states(rt, id)).toEqual({
      "Task A": "ACTIVE",
      "Stage A": "ACTIVE",
      "Task B": "ACTIVE",
      "Task C": "ACTIVE",
      "Stage B": "AVAILABLE",
    });
    await trigger(rt, id, "Task A");
    await trigger(rt, id, "Task B");
    expect(states(rt, id)).toMatchObject({
      "Stage B": "ACTIVE",
      "Task D": "ACTIVE",
      "Stage C": "ACTIVE",
      "Task E": "ACTIVE",
    });
    await trigger(rt, id, "Task C");
    expect(states(rt, id)).toMatchObject({
      "Stage B": "TERMINATED",
      "Task D": "TERMINATED",
      "Stage C": "TERMINATED",
      "Task E": "TERMINATED",
      "Stage A": "COMPLETED",
    });
    expect(ended(rt, id)).toBe(true);
  });

  test("exit of the plan model on a milestone terminates the case and its remaining tasks", async () => {
    const { rt, id } = await startFile("flowable/runtime/ExitCriteriaTest.testExitPlanModelOnMilestoneReached.cmmn");
    await trigger(rt, id, "A");
    expect(states(rt, id)).toMatchObject({ A: "COMPLETED", B: "ACTIVE", C: "ACTIVE", "The Milestone": "AVAILABLE" });
    await trigger(rt, id, "B");
    expect(states(rt, id)).toEqual({
      A: "COMPLETED",
      B: "COMPLETED",
      C: "TERMINATED",
      "The Milestone": "COMPLETED",
      D: "TERMINATED",
    });
    expect(rt.getCase(T, id, ALL)).toMatchObject({ ended: true, state: "TERMINATED" });
  });

  test("multiple entry criteria: the one with an if-part fires once its variable is set", async () => {
    const { rt, id, h } = await startFile(
      "flowable/runtime/EntryCriteriaTest.testMultipleEntryCriteriaWithAndWithoutIfPart.cmmn",
    );
    await completeTaskNamed(h, id, "B");
    expect(states(rt, id)).toMatchObject({ A: "ACTIVE", B: "COMPLETED", "Stage C": "AVAILABLE" });
    await rt.setVariables(T, id, { myVar: true });
    expect(states(rt, id)).toMatchObject({ "Stage C": "ACTIVE", C: "ACTIVE" });
  });

  test("human task: the initiator variable drives the assignee, the next task goes to candidates", async () => {
    const { h, id } = await startFile("flowable/runtime/HumanTaskTest.testHumanTask.cmmn");
    const first = h.db.query("SELECT assignee FROM tasks WHERE instance_id = ?").get(id);
    expect(first).toEqual({ assignee: "kermit" });
    await completeTaskNamed(h, id, "Task One");
    const second = h.db
      .query("SELECT candidate_users, candidate_groups FROM tasks WHERE instance_id = ? AND state = 'OPEN'")
      .get(id);
    expect(second).toEqual({ candidate_users: '["test","test2"]', candidate_groups: '["test"]' });
    expect(h.rt.getCase(T, id, { all: false, userId: "test2", groups: [] }).id).toBe(id);
    expect(() => h.rt.getCase(T, id, { all: false, userId: "stranger", groups: [] })).toThrow(/not found/);
  });

  test("required rule: the required task (if-part on a start variable) keeps the autoComplete case open", async () => {
    const { h, id, rt } = await startFile("flowable/itemcontrol/RequiredRuleTest.testOneRequiredHumanTask.cmmn", {
      required: true,
      nonRequired: false,
    });
    expect(states(rt, id)).toEqual({ "Required task": "ACTIVE", "Non-required task": "AVAILABLE" });
    await completeTaskNamed(h, id, "Required task");
    expect(ended(rt, id)).toBe(true);
  });

  test("force complete: a Manager completes the stage although a required item is still enabled, and the case ends", async () => {
    const { id, rt } = await startFile("flowable/runtime/StageTest.testForceComplete.cmmn");
    const stage = rt.planItems(T, id, { isManager: true }).find((p) => p.type === "stage")!;
    // Complete-stage is a forced close: offered to a Manager on every active stage, whatever is left inside.
    expect(stage.actions).toEqual(["COMPLETE_STAGE"]);
    expect((await rt.completeStage(T, id, stage.id, actor)).state).toBe("COMPLETED");
    expect(states(rt, id)).toEqual({ "Stage 1": "COMPLETED", "Human task": "TERMINATED" });
    expect(ended(rt, id)).toBe(true);
  });
});
