import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, openActivities, T } from "../fixtures/bpmn/harness";

const actor = { userId: "u1", channel: "REST" as const };
const open = openActivities;
const HOUR = 3_600_000;

describe("boundary events", () => {
  test("an interrupting boundary timer cancels the user task when due, not before", async () => {
    const { rt, clock } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "bt",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="work"/>
      <userTask id="work"/><sequenceFlow id="f1" sourceRef="work" targetRef="e1"/><endEvent id="e1"/>
      <boundaryEvent id="timeout" attachedToRef="work"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="timeout" targetRef="escalated"/><userTask id="escalated"/>`,
      ),
      { fileName: "b.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "bt" });
    const task = i.activeTasks[0];
    clock.advance(HOUR - 1);
    expect(await rt.runDueJobs()).toBe(0);
    expect(open(rt, i.id)).toEqual(["work"]);
    clock.advance(1);
    expect(await rt.runDueJobs()).toBe(1);
    expect(open(rt, i.id)).toEqual(["escalated"]);
    expect(rt.getTask(T, task.id).state).toBe("CANCELLED");
    await expect(rt.completeTask(T, task.id, {}, actor)).rejects.toThrow(/already cancelled/);
  });

  test("a non-interrupting timer cycle adds a branch at every tick while the task stays open", async () => {
    const { rt, clock } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "nic",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="work"/>
      <userTask id="work"/><sequenceFlow id="f1" sourceRef="work" targetRef="e1"/><endEvent id="e1"/>
      <boundaryEvent id="remind" attachedToRef="work" cancelActivity="false"><timerEventDefinition><timeCycle>R2/PT1H</timeCycle></timerEventDefinition></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="remind" targetRef="reminder"/><userTask id="reminder"/>`,
      ),
      { fileName: "n.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "nic" });
    for (let k = 0; k < 3; k++) {
      clock.advance(HOUR);
      await rt.runDueJobs();
    }
    expect(open(rt, i.id)).toEqual(["reminder", "reminder", "work"]);
    expect(rt.jobsOfInstance(T, i.id)).toHaveLength(0);
    await rt.completeTask(
      T,
      rt.listTasks(T, ALL, { instanceId: i.id }).find((t) => t.activityId === "work")!.id,
      {},
      actor,
    );
    expect(open(rt, i.id)).toEqual(["reminder", "reminder"]);
  });

  test("an error end event inside a subprocess is caught by the error boundary on the subprocess", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "eb",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub">
        <startEvent id="ss"/><sequenceFlow id="sf0" sourceRef="ss" targetRef="fork"/>
        <parallelGateway id="fork"/><sequenceFlow id="sf1" sourceRef="fork" targetRef="inner"/><sequenceFlow id="sf2" sourceRef="fork" targetRef="fail"/>
        <userTask id="inner"/>
        <endEvent id="fail"><errorEventDefinition errorRef="err"/></endEvent>
      </subProcess>
      <sequenceFlow id="f1" sourceRef="sub" targetRef="ok"/><userTask id="ok"/>
      <boundaryEvent id="caught" attachedToRef="sub"><errorEventDefinition errorRef="err"/></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="caught" targetRef="handle"/><userTask id="handle"/>`,
        `<error id="err" errorCode="E42"/>`,
      ),
      { fileName: "e.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "eb" });
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["handle"]);
  });

  test("a service task throwing a BPMN error is caught by its error boundary event", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "te",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/>
      <serviceTask id="call" flowable:type="throw-error"><extensionElements><flowable:field name="errorCode" stringValue="NOPE"/></extensionElements></serviceTask>
      <sequenceFlow id="f1" sourceRef="call" targetRef="e"/><endEvent id="e"/>
      <boundaryEvent id="b" attachedToRef="call"><errorEventDefinition errorRef="nope"/></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="b" targetRef="fix"/><userTask id="fix"/>`,
        `<error id="nope" errorCode="NOPE"/>`,
      ),
      { fileName: "t.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "te" });
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["fix"]);
  });

  test("an uncaught BPMN error refuses the command with a clear message", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "ue",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="e"/>
      <endEvent id="e"><errorEventDefinition errorRef="x"/></endEvent>`,
        `<error id="x" errorCode="X1"/>`,
      ),
      { fileName: "u.bpmn", createdBy: null },
    );
    await expect(rt.startInstance(T, { definitionKey: "ue" })).rejects.toThrow(/BPMN error 'X1'.*not caught/);
    expect(rt.listInstances(T, ALL, { state: "all" }).totalElements).toBe(0);
  });

  test("a message boundary interrupts its task; a signal boundary that does not cancel adds a branch", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "mb",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="work"/>
      <userTask id="work"/><sequenceFlow id="f1" sourceRef="work" targetRef="e1"/><endEvent id="e1"/>
      <boundaryEvent id="cancelMsg" attachedToRef="work"><messageEventDefinition messageRef="m"/></boundaryEvent>
      <sequenceFlow id="f2" sourceRef="cancelMsg" targetRef="cancelled"/><userTask id="cancelled"/>
      <boundaryEvent id="note" attachedToRef="work" cancelActivity="false"><signalEventDefinition signalRef="sg"/></boundaryEvent>
      <sequenceFlow id="f3" sourceRef="note" targetRef="noted"/><userTask id="noted"/>`,
        `<message id="m" name="cancelOrder"/><signal id="sg" name="priceChanged"/>`,
      ),
      { fileName: "m.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "mb" });
    expect((await rt.signal(T, "priceChanged")).triggered).toBe(1);
    expect(open(rt, i.id)).toEqual(["noted", "work"]);
    await rt.correlateMessage(T, "cancelOrder", { variables: { why: "customer" } });
    expect(open(rt, i.id)).toEqual(["cancelled", "noted"]);
    expect(rt.getVariables(T, i.id).why).toBe("customer");
  });
});
