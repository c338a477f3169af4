import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

const model = bpmn(
  "tk",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
  <parallelGateway id="fork"/><sequenceFlow id="f1" sourceRef="fork" targetRef="grp"/><sequenceFlow id="f2" sourceRef="fork" targetRef="usr"/>
  <userTask id="grp" name="Group task" flowable:candidateGroups="accounting, \${extraGroup}" flowable:formKey="invoice" flowable:dueDate="P2D" flowable:priority="80"/>
  <userTask id="usr" name="User task" flowable:candidateUsers="zoe"/>`,
);
const user = (userId: string, groups: string[] = []) => ({ all: false, userId, groups });

describe("tasks", () => {
  test("tasks carry candidates, form with its locked version, due date and priority; visibility follows assignment and groups", async () => {
    const { rt, clock } = makeRuntime({ hooks: { formVersionFor: (_t, key, form) => `${key}/${form}/v7` } });
    await rt.deploy(T, model, { fileName: "t.bpmn", createdBy: null });
    const i = await rt.startInstance(T, {
      definitionKey: "tk",
      businessKey: "BK-9",
      variables: { extraGroup: "audit" },
      startedBy: "starter",
    });
    const g = rt.listTasks(T, ALL).find((t) => t.activityId === "grp")!;
    expect(g).toMatchObject({
      candidateGroups: ["accounting", "audit"],
      formKey: "invoice",
      formVersionId: "tk/invoice/v7",
      priority: 80,
      businessKey: "BK-9",
      definitionKey: "tk",
      instanceId: i.id,
    });
    expect(Date.parse(g.dueDate!)).toBe(clock() + 2 * 86_400_000);
    expect(rt.listTasks(T, user("ann", ["accounting"])).map((t) => t.activityId)).toEqual(["grp"]);
    expect(rt.listTasks(T, user("zoe")).map((t) => t.activityId)).toEqual(["usr"]);
    expect(rt.listTasks(T, user("bob", ["sales"]))).toEqual([]);
    expect(() => rt.getTask(T, g.id, user("bob"))).toThrow(/not found/);
    // Instance visibility: the starter, candidates (directly or by group), and nobody else.
    expect(rt.listInstances(T, user("starter")).totalElements).toBe(1);
    expect(rt.listInstances(T, user("ann", ["audit"])).totalElements).toBe(1);
    expect(rt.listInstances(T, user("zoe")).totalElements).toBe(1);
    expect(rt.listInstances(T, user("bob", ["sales"])).totalElements).toBe(0);
    expect(() => rt.getInstance(T, i.id, user("bob"))).toThrow(/not found/);
  });

  test("claim, unclaim and delegate follow the allowed order; claiming a task claimed by someone else is a conflict", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(T, model, { fileName: "t.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "tk", variables: { extraGroup: null } });
    const g = rt.listTasks(T, ALL).find((t) => t.activityId === "grp")!;
    expect((await rt.claim(T, g.id, "ann")).assignee).toBe("ann");
    expect((await rt.claim(T, g.id, "ann")).assignee).toBe("ann");
    await expect(rt.claim(T, g.id, "bob")).rejects.toThrow(/already claimed/);
    expect(rt.listTasks(T, user("ann"), { mine: true }).map((t) => t.id)).toEqual([g.id]);
    expect((await rt.unclaim(T, g.id)).assignee).toBeNull();
    await rt.claim(T, g.id, "ann");
    expect(await rt.delegate(T, g.id, "carl", "ann")).toMatchObject({ assignee: "carl", owner: "ann" });
    await rt.completeTask(T, g.id, { approved: true }, { userId: "carl", channel: "MCP" });
    await expect(rt.claim(T, g.id, "carl")).rejects.toThrow(/already completed/);
    await expect(rt.completeTask(T, g.id, {}, { userId: "carl", channel: "REST" })).rejects.toMatchObject({
      code: "CONFLICT",
    });
    expect(rt.completedTasks(T, user("carl"))).toMatchObject([
      { id: g.id, completedBy: "carl", channel: "MCP", state: "COMPLETED" },
    ]);
    expect(rt.listInstances(T, user("carl")).totalElements).toBe(1);
  });

  test("task variables are written without completing, and the onTaskCreated hook sees each new task", async () => {
    const created: string[] = [];
    const { rt } = makeRuntime({ hooks: { onTaskCreated: (t) => created.push(t.activityId) } });
    await rt.deploy(T, model, { fileName: "t.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "tk" });
    expect(created.sort()).toEqual(["grp", "usr"]);
    const t = i.activeTasks[0];
    expect(await rt.setTaskVariables(T, t.id, { draft: "x" })).toMatchObject({ draft: "x" });
    expect(rt.getTask(T, t.id).state).toBe("OPEN");
    expect(rt.searchInstancesByVariable(T, ALL, "draft", "x").content.map((r) => r.id)).toEqual([i.id]);
    expect(rt.searchInstancesByVariable(T, ALL, "draft", "y").totalElements).toBe(0);
  });
});

describe("monitoring and history", () => {
  test("the monitor counts parked steps by reason for the version with most running instances", async () => {
    const { rt, clock } = makeRuntime();
    const xml = bpmn(
      "mon",
      `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/>
      <exclusiveGateway id="g" default="toTask"/>
      <sequenceFlow id="toTimer" sourceRef="g" targetRef="wait"><conditionExpression>\${route == 'timer'}</conditionExpression></sequenceFlow>
      <sequenceFlow id="toRecv" sourceRef="g" targetRef="recv"><conditionExpression>\${route == 'recv'}</conditionExpression></sequenceFlow>
      <sequenceFlow id="toTask" sourceRef="g" targetRef="approve"/>
      <intermediateCatchEvent id="wait"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></intermediateCatchEvent>
      <receiveTask id="recv"/><userTask id="approve" name="Approve" flowable:assignee="ann"/>`,
    );
    const v1 = await rt.deploy(T, xml, { fileName: "m.bpmn", createdBy: null });
    for (const route of ["task", "task", "timer", "recv"])
      await rt.startInstance(T, { definitionKey: "mon", businessKey: `BK-${route}`, variables: { route } });
    await rt.deploy(T, xml, { fileName: "m.bpmn", createdBy: null });
    await rt.publishDefinition(T, "mon", rt.definitionVersions(T, "mon")[0].definitionId);
    await rt.startInstance(T, { definitionKey: "mon", variables: { route: "task" } });
    const m = rt.monitor(T, "mon");
    expect(m).toMatchObject({
      definitionKey: "mon",
      definitionName: "mon",
      version: 1,
      runningInstances: 4,
      runningInstancesOtherVersions: 1,
      versions: [
        { version: 2, runningInstances: 1 },
        { version: 1, runningInstances: 4 },
      ],
    });
    expect(m.bpmnXml).toContain("<process");
    expect(m.activities).toEqual([
      {
        activityId: "approve",
        activityName: "Approve",
        activityType: "userTask",
        count: 2,
        byReason: { USER_TASK: 2 },
      },
      { activityId: "recv", activityName: "recv", activityType: "receiveTask", count: 1, byReason: { EXECUTING: 1 } },
      {
        activityId: "wait",
        activityName: "wait",
        activityType: "intermediateCatchEvent",
        count: 1,
        byReason: { TIMER: 1 },
      },
    ]);
    expect(rt.monitor(T, "mon", 2).activities).toEqual([
      {
        activityId: "approve",
        activityName: "Approve",
        activityType: "userTask",
        count: 1,
        byReason: { USER_TASK: 1 },
      },
    ]);
    const items = rt.monitorItems(T, "mon", "approve");
    expect(items).toHaveLength(2);
    expect(items[0]).toMatchObject({
      reason: "USER_TASK",
      assignee: "ann",
      taskId: expect.any(String),
      dueDate: null,
      businessKey: "BK-task",
    });
    expect(v1.definitions[0].version).toBe(1);
    clock.advance(3_600_000);
    await rt.runDueJobs();
    expect(rt.monitor(T, "mon").activities.find((a) => a.activityId === "wait")).toBeUndefined();
  });

  test("without running instances the monitor shows the latest published version", async () => {
    const { rt } = makeRuntime();
    const x = bpmn("q", `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/><userTask id="t"/>`);
    const a = await rt.deploy(T, x, { fileName: "q.bpmn", createdBy: null });
    await rt.deploy(T, x, { fileName: "q.bpmn", createdBy: null });
    await rt.publishDefinition(T, "q", a.definitions[0].definitionId);
    expect(rt.monitor(T, "q")).toMatchObject({ version: 1, runningInstances: 0, activities: [] });
  });

  test("history lists completed instances with their activity log, and the dashboard counts by visibility", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "h",
        `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/><userTask id="t" flowable:assignee="ann"/>
      <sequenceFlow id="g" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "h.bpmn", createdBy: null },
    );
    const a = await rt.startInstance(T, { definitionKey: "h", startedBy: "ann" });
    await rt.startInstance(T, { definitionKey: "h", startedBy: "bob" });
    await rt.completeTask(T, a.activeTasks[0].id, { done: 1 }, { userId: "ann", channel: "API_KEY" });
    expect(rt.historyInstances(T, ALL).content.map((i) => i.id)).toEqual([a.id]);
    expect(rt.historyInstance(T, a.id)).toMatchObject({
      ended: true,
      variables: { done: 1 },
      tasks: [{ completedBy: "ann", channel: "API_KEY" }],
    });
    expect(rt.historyActivities(T, a.id).map((x) => [x.activityType, x.who, x.channel])).toEqual([
      ["startEvent", null, null],
      ["userTask", "ann", "API_KEY"],
      ["endEvent", null, null],
    ]);
    expect(rt.dashboard(T, { all: false, userId: "bob", groups: [] })).toMatchObject({
      definitions: 1,
      runningInstances: 1,
      finishedInstances: 0,
      activeTasks: 0,
    });
    expect(rt.dashboard(T, ALL)).toMatchObject({
      definitions: 1,
      runningInstances: 1,
      finishedInstances: 1,
      activeTasks: 1,
    });
  });

  test("the diagram SVG draws the DI and highlights where the instance waits", async () => {
    const { rt } = makeRuntime();
    const xml = await Bun.file(new URL("../fixtures/bpmn/with-diagram.bpmn", import.meta.url)).text();
    await rt.deploy(T, xml, { fileName: "d.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "withDiagram" });
    const svg = rt.diagramSvg(T, i.id);
    expect(svg).toStartWith("<svg");
    expect(svg).toContain('class="active userTask" data-element-id="review"');
    expect(svg).toContain("<polyline");
    expect(svg).toContain(">Review &amp; approve</text>");
    expect(rt.diagramXml(T, i.id)).toBe(xml);
  });
});
