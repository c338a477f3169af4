import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, openActivities, T } from "../fixtures/bpmn/harness";

const actor = { userId: "u1", channel: "REST" as const };
type RT = ReturnType<typeof makeRuntime>["rt"];
const open = openActivities;
const deploy = (rt: RT, key: string, body: string, extra = "") =>
  rt.deploy(T, bpmn(key, body, extra), { fileName: `${key}.bpmn`, createdBy: null });
const complete = async (rt: RT, id: string, activityId: string, vars: Record<string, unknown> = {}) => {
  const t = rt.listTasks(T, ALL, { instanceId: id }).find((x) => x.activityId === activityId);
  if (!t) throw new Error(`no open task ${activityId}`);
  return rt.completeTask(T, t.id, vars, actor);
};

describe("1. a signal thrown inside the instance interrupts through its event subprocess", () => {
  const esp = `
    <subProcess id="esp" triggeredByEvent="true">
      <startEvent id="es" isInterrupting="true"><signalEventDefinition signalRef="sig"/></startEvent>
      <sequenceFlow id="ef1" sourceRef="es" targetRef="handle"/><userTask id="handle"/>
      <sequenceFlow id="ef2" sourceRef="handle" targetRef="ee"/><endEvent id="ee"/>
    </subProcess>`;
  const sig = `<signal id="sig" name="alarm"/>`;

  test("a signal end event: the handler runs, nothing of the interrupted flow is left", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "sigend",
      `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/><parallelGateway id="fork"/>
      <sequenceFlow id="f1" sourceRef="fork" targetRef="a"/><userTask id="a"/>
      <sequenceFlow id="f2" sourceRef="a" targetRef="throw"/><endEvent id="throw"><signalEventDefinition signalRef="sig"/></endEvent>
      <sequenceFlow id="f3" sourceRef="fork" targetRef="b"/><userTask id="b"/>
      <sequenceFlow id="f4" sourceRef="b" targetRef="after"/><userTask id="after"/>
      <sequenceFlow id="f5" sourceRef="after" targetRef="e"/><endEvent id="e"/>${esp}`,
      sig,
    );
    const i = await rt.startInstance(T, { definitionKey: "sigend" });
    await complete(rt, i.id, "a");
    expect(open(rt, i.id)).toEqual(["handle"]);
    await complete(rt, i.id, "handle");
    expect(rt.getInstance(T, i.id).state).toBe("COMPLETED");
    expect(rt.listTasks(T, ALL, { instanceId: i.id })).toHaveLength(0);
  });

  test("a signal end event inside a subprocess: the task after the subprocess never appears", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "sigsub",
      `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><startEvent id="ss"/><sequenceFlow id="sf0" sourceRef="ss" targetRef="a"/><userTask id="a"/>
        <sequenceFlow id="sf1" sourceRef="a" targetRef="throw"/><endEvent id="throw"><signalEventDefinition signalRef="sig"/></endEvent>
      </subProcess>
      <sequenceFlow id="f1" sourceRef="sub" targetRef="after"/><userTask id="after"/>
      <sequenceFlow id="f2" sourceRef="after" targetRef="e"/><endEvent id="e"/>${esp}`,
      sig,
    );
    const i = await rt.startInstance(T, { definitionKey: "sigsub" });
    await complete(rt, i.id, "a");
    expect(open(rt, i.id)).toEqual(["handle"]);
    expect(rt.getInstance(T, i.id).activeActivityIds).not.toContain("after");
    await complete(rt, i.id, "handle");
    expect(rt.getInstance(T, i.id).state).toBe("COMPLETED");
    expect(rt.listTasks(T, ALL, { instanceId: i.id })).toHaveLength(0);
  });

  test("a signal intermediate throw: the activity after it is never created", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "sigthrow",
      `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="a"/><userTask id="a"/>
      <sequenceFlow id="f1" sourceRef="a" targetRef="throw"/><intermediateThrowEvent id="throw"><signalEventDefinition signalRef="sig"/></intermediateThrowEvent>
      <sequenceFlow id="f2" sourceRef="throw" targetRef="after"/><userTask id="after"/>
      <sequenceFlow id="f3" sourceRef="after" targetRef="e"/><endEvent id="e"/>${esp}`,
      sig,
    );
    const i = await rt.startInstance(T, { definitionKey: "sigthrow" });
    await complete(rt, i.id, "a");
    expect(open(rt, i.id)).toEqual(["handle"]);
    await complete(rt, i.id, "handle");
    const inst = rt.getInstance(T, i.id);
    expect(inst.state).toBe("COMPLETED");
    expect(rt.listTasks(T, ALL, { instanceId: i.id })).toHaveLength(0);
  });
});

describe("2. compensation of a multi-instance subprocess", () => {
  const mi = `<multiInstanceLoopCharacteristics isSequential="true" camunda:collection="items" camunda:elementVariable="item"/>`;
  const model = (handlerKind: "boundary" | "esp", thrower: string) => `
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
    <subProcess id="sub">${mi}
      <startEvent id="ss"/><sequenceFlow id="sf0" sourceRef="ss" targetRef="work"/><userTask id="work"/>
      <sequenceFlow id="sf1" sourceRef="work" targetRef="se"/><endEvent id="se"/>
      ${
        handlerKind === "esp"
          ? `<subProcess id="cesp" triggeredByEvent="true"><startEvent id="cs"><compensateEventDefinition/></startEvent>
        <sequenceFlow id="cf0" sourceRef="cs" targetRef="undo"/><userTask id="undo"/>
        <sequenceFlow id="cf1" sourceRef="undo" targetRef="ce"/><endEvent id="ce"/></subProcess>`
          : ""
      }
    </subProcess>
    ${
      handlerKind === "boundary"
        ? `<boundaryEvent id="cb" attachedToRef="sub"><compensateEventDefinition/></boundaryEvent>
    <userTask id="undo" isForCompensation="true"/><association id="as" associationDirection="One" sourceRef="cb" targetRef="undo"/>`
        : ""
    }
    <sequenceFlow id="f1" sourceRef="sub" targetRef="throw"/>${thrower}
    ${thrower.startsWith("<end") ? "" : `<sequenceFlow id="f2" sourceRef="throw" targetRef="e"/><endEvent id="e"/>`}`;

  const run = async (kind: "boundary" | "esp", thrower: string) => {
    const { rt } = makeRuntime();
    await deploy(rt, `mic${kind}`, model(kind, thrower));
    const i = await rt.startInstance(T, { definitionKey: `mic${kind}`, variables: { items: ["a", "b", "c"] } });
    for (let k = 0; k < 3; k++) await complete(rt, i.id, "work");
    const undone: unknown[] = [];
    for (let k = 0; k < 5; k++) {
      const t = rt.listTasks(T, ALL, { instanceId: i.id }).find((x) => x.activityId === "undo");
      if (!t) break;
      expect(rt.listTasks(T, ALL, { instanceId: i.id })).toHaveLength(1);
      undone.push(rt.getTaskVariables(T, t.id).item);
      await rt.completeTask(T, t.id, {}, actor);
    }
    return { undone, state: rt.getInstance(T, i.id).state };
  };
  const throwRef = `<intermediateThrowEvent id="throw"><compensateEventDefinition activityRef="sub"/></intermediateThrowEvent>`;
  const endRef = `<endEvent id="throw"><compensateEventDefinition activityRef="sub"/></endEvent>`;

  test("a compensation event subprocess: once per inner instance, in reverse order (intermediate throw)", async () => {
    expect(await run("esp", throwRef)).toEqual({ undone: ["c", "b", "a"], state: "COMPLETED" });
  });
  test("a compensation event subprocess: likewise from a compensate end event", async () => {
    expect(await run("esp", endRef)).toEqual({ undone: ["c", "b", "a"], state: "COMPLETED" });
  });
  test("a compensate boundary on the multi-instance subprocess: once per inner instance, in reverse order", async () => {
    expect(await run("boundary", throwRef)).toEqual({ undone: ["c", "b", "a"], state: "COMPLETED" });
  });
});

describe("3. an escalation re-thrown from an escalation event subprocess", () => {
  test("reaches the boundary event of the enclosing subprocess, not the same event subprocess", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "rethrow",
      `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub">
        <startEvent id="ss"/><sequenceFlow id="sf0" sourceRef="ss" targetRef="raise"/>
        <intermediateThrowEvent id="raise"><escalationEventDefinition escalationRef="esc"/></intermediateThrowEvent>
        <sequenceFlow id="sf1" sourceRef="raise" targetRef="a"/><userTask id="a"/>
        <sequenceFlow id="sf2" sourceRef="a" targetRef="se"/><endEvent id="se"/>
        <subProcess id="esp" triggeredByEvent="true">
          <startEvent id="es" isInterrupting="false"><escalationEventDefinition escalationRef="esc"/></startEvent>
          <sequenceFlow id="ef0" sourceRef="es" targetRef="again"/>
          <intermediateThrowEvent id="again"><escalationEventDefinition escalationRef="esc"/></intermediateThrowEvent>
          <sequenceFlow id="ef1" sourceRef="again" targetRef="inEsp"/><userTask id="inEsp"/>
          <sequenceFlow id="ef2" sourceRef="inEsp" targetRef="ee"/><endEvent id="ee"/>
        </subProcess>
      </subProcess>
      <boundaryEvent id="caught" attachedToRef="sub" cancelActivity="false"><escalationEventDefinition escalationRef="esc"/></boundaryEvent>
      <sequenceFlow id="f1" sourceRef="caught" targetRef="outer"/><userTask id="outer"/>
      <sequenceFlow id="f2" sourceRef="sub" targetRef="e"/><endEvent id="e"/>`,
      `<escalation id="esc" escalationCode="E"/>`,
    );
    const i = await rt.startInstance(T, { definitionKey: "rethrow" });
    expect(open(rt, i.id)).toEqual(["a", "inEsp", "outer"]);
  });
});

describe("4. standard BPMN multi-instance data", () => {
  const miTask = (lc: string) => `
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="review"/>
    <userTask id="review">
      <ioSpecification id="io"><dataInput id="reviewersIn" name="reviewers"/><dataOutput id="verdictsOut" name="verdicts"/>
        <inputSet id="is"><dataInputRefs>reviewersIn</dataInputRefs></inputSet><outputSet id="os"><dataOutputRefs>verdictsOut</dataOutputRefs></outputSet></ioSpecification>
      ${lc}
    </userTask>
    <sequenceFlow id="f1" sourceRef="review" targetRef="after"/><userTask id="after"/>
    <sequenceFlow id="f2" sourceRef="after" targetRef="e"/><endEvent id="e"/>`;
  const standard = `<multiInstanceLoopCharacteristics isSequential="false">
        <loopDataInputRef>reviewers</loopDataInputRef><loopDataOutputRef>verdicts</loopDataOutputRef>
        <inputDataItem id="reviewer" name="reviewer"/><outputDataItem id="verdict" name="verdict"/>
      </multiInstanceLoopCharacteristics>`;

  test("loopDataInputRef/inputDataItem give one instance per item; loopDataOutputRef collects outputDataItem", async () => {
    const { rt } = makeRuntime();
    await deploy(rt, "stdmi", miTask(standard));
    const i = await rt.startInstance(T, { definitionKey: "stdmi", variables: { reviewers: ["ann", "bob"] } });
    const tasks = rt.listTasks(T, ALL, { instanceId: i.id }).filter((t) => t.activityId === "review");
    expect(tasks.map((t) => rt.getTaskVariables(T, t.id).reviewer).sort()).toEqual(["ann", "bob"]);
    // Completed out of order: the output list keeps the order of the input items.
    const byReviewer = (r: string) => tasks.find((t) => rt.getTaskVariables(T, t.id).reviewer === r)!;
    await rt.completeTask(T, byReviewer("bob").id, { verdict: "no" }, actor);
    await rt.completeTask(T, byReviewer("ann").id, { verdict: "yes" }, actor);
    expect(open(rt, i.id)).toEqual(["after"]);
    expect(rt.getVariables(T, i.id).verdicts).toEqual(["yes", "no"]);
  });

  test("an empty collection skips the activity (standard and Camunda attributes)", async () => {
    const { rt } = makeRuntime();
    await deploy(rt, "stdempty", miTask(standard));
    const i = await rt.startInstance(T, { definitionKey: "stdempty", variables: { reviewers: [] } });
    expect(open(rt, i.id)).toEqual(["after"]);
    await deploy(
      rt,
      "camempty",
      miTask(`<multiInstanceLoopCharacteristics camunda:collection="reviewers" camunda:elementVariable="reviewer"/>`),
    );
    const j = await rt.startInstance(T, { definitionKey: "camempty", variables: { reviewers: [] } });
    expect(open(rt, j.id)).toEqual(["after"]);
  });
});

describe("5. a process whose only start event is a message, signal or timer start", () => {
  for (const [kind, def, extra] of [
    ["message", `<messageEventDefinition messageRef="m"/>`, `<message id="m" name="order"/>`],
    ["signal", `<signalEventDefinition signalRef="g"/>`, `<signal id="g" name="go"/>`],
    ["timer", `<timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition>`, ""],
  ] as const)
    test(`${kind}: POST /a/instances starts it through that event`, async () => {
      const { rt } = makeRuntime();
      await deploy(
        rt,
        `only${kind}`,
        `<startEvent id="s">${def}</startEvent><sequenceFlow id="f0" sourceRef="s" targetRef="a"/><userTask id="a"/>`,
        extra,
      );
      const i = await rt.startInstance(T, { definitionKey: `only${kind}` });
      expect(i.activeTasks.map((t) => t.activityId)).toEqual(["a"]);
    });

  test("two event start events and no none start: refused with a clear 400", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "twostarts",
      `<startEvent id="s1"><messageEventDefinition messageRef="m"/></startEvent><sequenceFlow id="f0" sourceRef="s1" targetRef="a"/>
      <startEvent id="s2"><signalEventDefinition signalRef="g"/></startEvent><sequenceFlow id="f1" sourceRef="s2" targetRef="a"/><userTask id="a"/>`,
      `<message id="m" name="order"/><signal id="g" name="go"/>`,
    );
    await expect(rt.startInstance(T, { definitionKey: "twostarts" })).rejects.toThrow(/2 event start events/);
  });
});

describe("8. small ones", () => {
  test("active activity ids: one entry per active execution; a multi-instance body is not a user task in history", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "small",
      `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/><parallelGateway id="fork"/>
      <sequenceFlow id="f1" sourceRef="fork" targetRef="a"/><sequenceFlow id="f2" sourceRef="fork" targetRef="a"/>
      <userTask id="a"/><sequenceFlow id="f3" sourceRef="a" targetRef="mi"/>
      <userTask id="mi"><multiInstanceLoopCharacteristics flowable:collection="xs" flowable:elementVariable="x"/></userTask>`,
    );
    const i = await rt.startInstance(T, { definitionKey: "small", variables: { xs: [1, 2, 3] } });
    expect(rt.getInstance(T, i.id).activeActivityIds).toEqual(["a", "a"]);
    await complete(rt, i.id, "a");
    expect(rt.getInstance(T, i.id).activeActivityIds).toEqual(["a", "mi", "mi", "mi"]);
    const rows = rt.historyActivities(T, i.id).filter((r) => r.activityId === "mi");
    expect(rows.filter((r) => r.activityType === "userTask")).toHaveLength(3);
    expect(rows.filter((r) => r.activityType === "multiInstanceBody")).toHaveLength(1);
  });
});
