import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

// Flowable's AdhocSubProcessTest scenarios, written inline: the caller starts enabled activities, the subprocess completes
// on its completion condition (cancelling or awaiting the rest) or on the caller's word.
const adhoc = (attrs: string, inner: string, cond = "") =>
  bpmn(
    "adhocProc",
    `
  <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="adhoc"/>
  <adHocSubProcess id="adhoc" ${attrs}>
    ${cond ? `<completionCondition>${cond}</completionCondition>` : ""}
    ${inner}
  </adHocSubProcess>
  <sequenceFlow id="f2" sourceRef="adhoc" targetRef="after"/>
  <userTask id="after" name="After task"/><sequenceFlow id="f3" sourceRef="after" targetRef="e"/><endEvent id="e"/>`,
  );

const twoTasks = `<userTask id="t1" name="Task in subprocess"/><userTask id="t2" name="Task2 in subprocess"/>`;
const actor = { userId: "kermit", channel: "REST" as const };

async function setup(xml: string, vars: Record<string, unknown> = { completed: false }) {
  const h = makeRuntime();
  await h.rt.deploy(T, xml, { fileName: "adhoc.bpmn", createdBy: null });
  const i = await h.rt.startInstance(T, { definitionKey: "adhocProc", variables: vars });
  const tasks = () => h.rt.listTasks(T, ALL, { instanceId: i.id });
  const names = () =>
    tasks()
      .map((t) => t.name)
      .sort();
  const complete = (name: string, v: Record<string, unknown> = {}) =>
    h.rt.completeTask(T, tasks().find((t) => t.name === name)!.id, v, actor);
  return { ...h, i, tasks, names, complete };
}

describe("ad-hoc subprocess", () => {
  test("starts nothing by itself and lists its activities without incoming flows as enabled", async () => {
    const h = await setup(
      adhoc("", `${twoTasks}<userTask id="t3" name="Next"/><sequenceFlow id="x" sourceRef="t1" targetRef="t3"/>`),
    );
    expect(h.tasks()).toHaveLength(0);
    expect(h.rt.getInstance(T, h.i.id).activeActivityIds).toEqual(["adhoc"]);
    expect(
      h.rt
        .enabledAdhocActivities(T, h.i.id)
        .map((a) => a.activityId)
        .sort(),
    ).toEqual(["t1", "t2"]);
  });

  test("an executed activity runs inside; the subprocess stays until the caller completes it", async () => {
    const h = await setup(adhoc("", twoTasks));
    const r = await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    expect(r.activeTasks.map((t) => t.name)).toEqual(["Task in subprocess"]);
    await h.complete("Task in subprocess");
    expect(h.names()).toEqual([]);
    expect(h.rt.enabledAdhocActivities(T, h.i.id)).toHaveLength(2);
    await h.rt.completeAdhocSubProcess(T, h.i.id, "adhoc");
    expect(h.names()).toEqual(["After task"]);
    expect(h.rt.enabledAdhocActivities(T, h.i.id)).toEqual([]);
  });

  test("the completion condition, checked as each inner activity ends, completes the subprocess", async () => {
    const h = await setup(adhoc("", twoTasks, "${completed}"));
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    await h.complete("Task in subprocess");
    expect(h.rt.getInstance(T, h.i.id).activeActivityIds).toEqual(["adhoc"]);
    await h.rt.executeAdhocActivity(T, h.i.id, "t2");
    await h.complete("Task2 in subprocess", { completed: true });
    expect(h.names()).toEqual(["After task"]);
    const hist = h.rt.historyActivities(T, h.i.id).map((a) => `${a.activityId}:${a.outcome ?? "open"}`);
    expect(hist).toEqual(["s:completed", "adhoc:completed", "t1:completed", "t2:completed", "after:open"]);
  });

  test("the completion condition is also checked when an inner end event is reached", async () => {
    const h = await setup(
      adhoc(
        "",
        `${twoTasks}<sequenceFlow id="x" sourceRef="t1" targetRef="innerEnd"/><endEvent id="innerEnd"/>`,
        '${execution.currentActivityId == "innerEnd"}',
      ),
    );
    await h.rt.executeAdhocActivity(T, h.i.id, "t2");
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    await h.complete("Task in subprocess");
    expect(h.names()).toEqual(["After task"]);
  });

  test("parallel ordering runs several activities at once; completion cancels the remaining ones", async () => {
    const h = await setup(adhoc("", twoTasks, "${completed}"));
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    await h.rt.executeAdhocActivity(T, h.i.id, "t2");
    expect(h.names()).toEqual(["Task in subprocess", "Task2 in subprocess"]);
    const t2 = h.tasks().find((t) => t.activityId === "t2")!;
    await h.complete("Task in subprocess", { completed: true });
    expect(h.names()).toEqual(["After task"]);
    expect(h.rt.getTask(T, t2.id).state).toBe("CANCELLED");
  });

  test("cancelRemainingInstances=false waits for the running activities before completing", async () => {
    const h = await setup(adhoc(`cancelRemainingInstances="false"`, twoTasks, "${completed}"));
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    await h.rt.executeAdhocActivity(T, h.i.id, "t2");
    await h.complete("Task in subprocess", { completed: true });
    expect(h.names()).toEqual(["Task2 in subprocess"]);
    await h.complete("Task2 in subprocess");
    expect(h.names()).toEqual(["After task"]);
  });

  test("sequential ordering refuses a second activity while one runs, including along its flows", async () => {
    const h = await setup(
      adhoc(
        `ordering="Sequential"`,
        `${twoTasks}<userTask id="t3" name="The next task"/><sequenceFlow id="x" sourceRef="t1" targetRef="t3"/>`,
        "${completed}",
      ),
    );
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    await expect(h.rt.executeAdhocActivity(T, h.i.id, "t2")).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/Sequential ad-hoc subprocess 'adhoc' already runs an activity/),
    });
    await h.complete("Task in subprocess");
    expect(h.names()).toEqual(["The next task"]);
    await expect(h.rt.executeAdhocActivity(T, h.i.id, "t2")).rejects.toMatchObject({ code: "CONFLICT" });
    await h.complete("The next task");
    await h.rt.executeAdhocActivity(T, h.i.id, "t2");
    await h.complete("Task2 in subprocess", { completed: true });
    expect(h.names()).toEqual(["After task"]);
  });

  test("refuses what cannot be started or completed, and another tenant's instance", async () => {
    const h = await setup(
      adhoc("", `${twoTasks}<userTask id="t3" name="Next"/><sequenceFlow id="x" sourceRef="t1" targetRef="t3"/>`),
    );
    await expect(h.rt.executeAdhocActivity(T, h.i.id, "t3")).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/'t3' .* cannot be started/),
    });
    await expect(h.rt.executeAdhocActivity(T, h.i.id, "after")).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/No running ad-hoc subprocess/),
    });
    await expect(h.rt.executeAdhocActivity("tenant-b", h.i.id, "t1")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(h.rt.completeAdhocSubProcess("tenant-b", h.i.id, "adhoc")).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(() => h.rt.enabledAdhocActivities("tenant-b", h.i.id)).toThrow(/not found/);
    await expect(h.rt.completeAdhocSubProcess(T, h.i.id, "after")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    await expect(h.rt.completeAdhocSubProcess(T, h.i.id, "adhoc")).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/running activities/),
    });
    expect(h.names()).toEqual(["Task in subprocess"]);
    await h.rt.cancelInstance(T, h.i.id);
    await expect(h.rt.executeAdhocActivity(T, h.i.id, "t2")).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/already ended/),
    });
    expect(h.rt.enabledAdhocActivities(T, h.i.id)).toEqual([]);
  });

  test("a refused start changes nothing", async () => {
    const h = await setup(adhoc(`ordering="Sequential"`, twoTasks));
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    const before = h.rt.historyActivities(T, h.i.id).length;
    await expect(h.rt.executeAdhocActivity(T, h.i.id, "t2")).rejects.toMatchObject({ code: "CONFLICT" });
    expect(h.rt.historyActivities(T, h.i.id)).toHaveLength(before);
    expect(h.names()).toEqual(["Task in subprocess"]);
  });

  test("an interrupting boundary event on the ad-hoc subprocess cancels what runs inside", async () => {
    const xml = adhoc("", twoTasks)
      .replace(
        `<sequenceFlow id="f2"`,
        `<boundaryEvent id="stop" attachedToRef="adhoc"><messageEventDefinition messageRef="m"/></boundaryEvent>
      <sequenceFlow id="f4" sourceRef="stop" targetRef="stopped"/><userTask id="stopped" name="Stopped"/><sequenceFlow id="f2"`,
      )
      .replace("<process", `<message id="m" name="stop"/><process`);
    const h = await setup(xml);
    await h.rt.executeAdhocActivity(T, h.i.id, "t1");
    await h.rt.correlateMessage(T, "stop");
    expect(h.names()).toEqual(["Stopped"]);
    expect(h.rt.enabledAdhocActivities(T, h.i.id)).toEqual([]);
  });

  test("deploys without orphan or dead-end warnings for its unconnected activities", async () => {
    const { rt } = makeRuntime();
    const d = await rt.deploy(T, adhoc("", twoTasks), { fileName: "adhoc.bpmn", createdBy: null });
    expect(d.warnings.join("\n")).not.toMatch(/'t1'|'t2'/);
  });
});
