import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, openActivities, T } from "../fixtures/bpmn/harness";

const actor = { userId: "u1", channel: "REST" as const };
const open = openActivities;
const HOUR = 3_600_000;

describe("event subprocesses and other events", () => {
  const esp = (interrupting: boolean) =>
    bpmn(
      "esp",
      `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="work"/>
      <userTask id="work"/><sequenceFlow id="f1" sourceRef="work" targetRef="e1"/><endEvent id="e1"/>
      <subProcess id="handler" triggeredByEvent="true">
        <startEvent id="hs" isInterrupting="${interrupting}"><messageEventDefinition messageRef="m"/></startEvent>
        <sequenceFlow id="h1" sourceRef="hs" targetRef="handle"/><userTask id="handle"/>
        <sequenceFlow id="h2" sourceRef="handle" targetRef="he"/><endEvent id="he"/>
      </subProcess>`,
      `<message id="m" name="update"/>`,
    );

  test("an interrupting event subprocess cancels the main flow and ends the instance when it completes", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(T, esp(true), { fileName: "e.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "esp" });
    await rt.correlateMessage(T, "update", {});
    expect(open(rt, i.id)).toEqual(["handle"]);
    await rt.completeTask(T, rt.listTasks(T, ALL, { instanceId: i.id })[0].id, {}, actor);
    expect(rt.getInstance(T, i.id).ended).toBe(true);
  });

  test("a non-interrupting event subprocess runs beside the main flow, once per message", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(T, esp(false), { fileName: "e.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "esp" });
    await rt.correlateMessage(T, "update", {});
    await rt.correlateMessage(T, "update", {});
    expect(open(rt, i.id)).toEqual(["handle", "handle", "work"]);
    await rt.completeTask(
      T,
      rt.listTasks(T, ALL, { instanceId: i.id }).find((t) => t.activityId === "work")!.id,
      {},
      actor,
    );
    expect(rt.getInstance(T, i.id).ended).toBe(false);
    for (const t of rt.listTasks(T, ALL, { instanceId: i.id })) await rt.completeTask(T, t.id, {}, actor);
    expect(rt.getInstance(T, i.id).ended).toBe(true);
  });

  test("a terminate end event ends the instance with parallel tasks still open", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "term",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <parallelGateway id="fork"/><sequenceFlow id="f1" sourceRef="fork" targetRef="a"/><sequenceFlow id="f2" sourceRef="fork" targetRef="b"/>
      <userTask id="a"/><userTask id="b"/><sequenceFlow id="f3" sourceRef="a" targetRef="t"/>
      <endEvent id="t"><terminateEventDefinition/></endEvent>`,
      ),
      { fileName: "t.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "term" });
    const a = i.activeTasks.find((t) => t.activityId === "a")!;
    const b = i.activeTasks.find((t) => t.activityId === "b")!;
    await rt.completeTask(T, a.id, {}, actor);
    expect(rt.getInstance(T, i.id)).toMatchObject({ ended: true, endReason: "terminated" });
    expect(rt.getTask(T, b.id).state).toBe("CANCELLED");
  });

  test("a conditional catch event waits until a variable makes its condition true", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "cond",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="c"/>
      <intermediateCatchEvent id="c"><conditionalEventDefinition><condition>\${approved == true}</condition></conditionalEventDefinition></intermediateCatchEvent>
      <sequenceFlow id="f1" sourceRef="c" targetRef="next"/><userTask id="next"/>`,
      ),
      { fileName: "c.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "cond", variables: { approved: false } });
    expect(i.activeTasks).toHaveLength(0);
    await rt.setInstanceVariables(T, i.id, { approved: true });
    expect(open(rt, i.id)).toEqual(["next"]);
  });

  test("a link throw event continues at the link catch event of the same name", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "lnk",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="lt"/>
      <intermediateThrowEvent id="lt"><linkEventDefinition name="jump"/></intermediateThrowEvent>
      <intermediateCatchEvent id="lc"><linkEventDefinition name="jump"/></intermediateCatchEvent>
      <sequenceFlow id="f1" sourceRef="lc" targetRef="landed"/><userTask id="landed"/>`,
      ),
      { fileName: "l.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "lnk" });
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["landed"]);
  });

  test("an escalation thrown in a subprocess reaches a non-interrupting boundary and the subprocess goes on", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "esc",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><startEvent id="ss"/><sequenceFlow id="a" sourceRef="ss" targetRef="th"/>
        <intermediateThrowEvent id="th"><escalationEventDefinition escalationRef="es"/></intermediateThrowEvent>
        <sequenceFlow id="b" sourceRef="th" targetRef="inner"/><userTask id="inner"/></subProcess>
      <boundaryEvent id="be" attachedToRef="sub" cancelActivity="false"><escalationEventDefinition escalationRef="es"/></boundaryEvent>
      <sequenceFlow id="f1" sourceRef="be" targetRef="manager"/><userTask id="manager"/>`,
        `<escalation id="es" escalationCode="LATE"/>`,
      ),
      { fileName: "s.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "esc" });
    expect(i.activeTasks.map((t) => t.activityId).sort()).toEqual(["inner", "manager"]);
  });

  test("message and signal start events start new instances of the published version", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "ms",
        `<startEvent id="s"><messageEventDefinition messageRef="m"/></startEvent>
      <sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>`,
        `<message id="m" name="newInvoice"/>`,
      ),
      { fileName: "m.bpmn", createdBy: null },
    );
    await rt.deploy(
      T,
      bpmn(
        "ss",
        `<startEvent id="s"><signalEventDefinition signalRef="g"/></startEvent>
      <sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>`,
        `<signal id="g" name="alert"/>`,
      ),
      { fileName: "s.bpmn", createdBy: null },
    );
    const [r] = await rt.correlateMessage(T, "newInvoice", { businessKey: "INV-1", variables: { amount: 3 } });
    expect(r.started).toBe(true);
    expect(rt.getInstance(T, r.instanceId)).toMatchObject({
      businessKey: "INV-1",
      definitionKey: "ms",
      variables: { amount: 3 },
    });
    await rt.signal(T, "alert");
    await rt.signal(T, "alert");
    expect(rt.listInstances(T, ALL, { definitionKey: "ss" }).totalElements).toBe(2);
    // Its one start event is a message start: a plain start goes through it (issue 16, as Camunda).
    const plain = await rt.startInstance(T, { definitionKey: "ms" });
    expect(plain.activeTasks.map((t) => t.activityId)).toEqual(["t"]);
  });
});

describe("timer start events", () => {
  test("a timer start cycle starts an instance at each due time of the published version, and stops when suspended", async () => {
    const { rt, clock } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "ts",
        `<startEvent id="s"><timerEventDefinition><timeCycle>R/PT1H</timeCycle></timerEventDefinition></startEvent>
      <sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>`,
      ),
      { fileName: "t.bpmn", createdBy: null },
    );
    clock.advance(HOUR - 1);
    await rt.runDueJobs();
    expect(rt.listInstances(T, ALL).totalElements).toBe(0);
    clock.advance(1);
    await rt.runDueJobs();
    clock.advance(HOUR);
    await rt.runDueJobs();
    expect(rt.listInstances(T, ALL).totalElements).toBe(2);
    await rt.suspendDefinition(T, "ts");
    clock.advance(HOUR);
    await rt.runDueJobs();
    expect(rt.listInstances(T, ALL).totalElements).toBe(2);
  });
});
