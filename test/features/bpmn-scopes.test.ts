import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

const actor = { userId: "u1", channel: "REST" as const };
type RT = ReturnType<typeof makeRuntime>["rt"];
const open = (rt: RT, id?: string) =>
  rt
    .listTasks(T, ALL, id ? { instanceId: id } : {})
    .map((t) => t.activityId)
    .sort();

describe("subprocesses, call activities and multi-instance", () => {
  test("an embedded subprocess keeps its local variables and continues the parent when it ends", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "sp",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><startEvent id="ss"/><sequenceFlow id="a" sourceRef="ss" targetRef="inner"/><userTask id="inner"/>
        <sequenceFlow id="b" sourceRef="inner" targetRef="se"/><endEvent id="se"/></subProcess>
      <sequenceFlow id="f1" sourceRef="sub" targetRef="after"/><userTask id="after"/>`,
      ),
      { fileName: "s.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "sp" });
    expect(rt.getInstance(T, i.id).activeActivityIds.sort()).toEqual(["inner", "sub"]);
    await rt.completeTask(T, i.activeTasks[0].id, { fromInner: 1 }, actor);
    expect(open(rt, i.id)).toEqual(["after"]);
    expect(rt.getVariables(T, i.id)).toEqual({ fromInner: 1 });
  });

  test("a call activity starts the called process with mapped variables and maps results back when it ends", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "child",
        `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="ct"/><userTask id="ct"/>
      <sequenceFlow id="g" sourceRef="ct" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "c.bpmn", createdBy: null },
    );
    await rt.deploy(
      T,
      bpmn(
        "parent",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/>
      <callActivity id="call" calledElement="child"><extensionElements>
        <flowable:in source="amount" target="total"/><flowable:in sourceExpression="\${amount * 2}" target="double"/>
        <flowable:out source="verdict" target="result"/></extensionElements></callActivity>
      <sequenceFlow id="f1" sourceRef="call" targetRef="after"/><userTask id="after"/>`,
      ),
      { fileName: "p.bpmn", createdBy: null },
    );
    const p = await rt.startInstance(T, {
      definitionKey: "parent",
      businessKey: "BK",
      variables: { amount: 21 },
      startedBy: "u1",
    });
    const childTask = rt.listTasks(T, ALL).find((t) => t.activityId === "ct")!;
    expect(childTask.businessKey).toBe("BK");
    expect(rt.getVariables(T, childTask.instanceId)).toEqual({ total: 21, double: 42 });
    await rt.completeTask(T, childTask.id, { verdict: "ok" }, actor);
    expect(open(rt, p.id)).toEqual(["after"]);
    expect(rt.getVariables(T, p.id)).toMatchObject({ amount: 21, result: "ok" });
    expect(rt.getInstance(T, childTask.instanceId).ended).toBe(true);
  });

  test("cancelling the parent cancels the called instance", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn("child", `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="ct"/><userTask id="ct"/>`),
      { fileName: "c.bpmn", createdBy: null },
    );
    await rt.deploy(
      T,
      bpmn(
        "parent",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/><callActivity id="call" calledElement="child"/>`,
      ),
      { fileName: "p.bpmn", createdBy: null },
    );
    const p = await rt.startInstance(T, { definitionKey: "parent" });
    const child = rt.listTasks(T, ALL)[0].instanceId;
    await rt.cancelInstance(T, p.id);
    expect(rt.getInstance(T, child).state).toBe("CANCELLED");
    expect(rt.listTasks(T, ALL)).toHaveLength(0);
  });

  test("a parallel multi-instance task over a collection stops once its completion condition holds", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "mi",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="vote"/>
      <userTask id="vote" flowable:assignee="\${voter}">
        <multiInstanceLoopCharacteristics isSequential="false" flowable:collection="voters" flowable:elementVariable="voter">
          <completionCondition>\${nrOfCompletedInstances / nrOfInstances >= 0.6}</completionCondition>
        </multiInstanceLoopCharacteristics></userTask>
      <sequenceFlow id="f1" sourceRef="vote" targetRef="done"/><userTask id="done"/>`,
      ),
      { fileName: "m.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, {
      definitionKey: "mi",
      variables: { voters: ["ann", "bob", "cy", "dee", "eve"] },
    });
    expect(i.activeTasks.map((t) => t.assignee).sort()).toEqual(["ann", "bob", "cy", "dee", "eve"]);
    for (const who of ["ann", "bob"])
      await rt.completeTask(T, rt.listTasks(T, ALL).find((t) => t.assignee === who)!.id, {}, actor);
    expect(open(rt, i.id)).toEqual(["vote", "vote", "vote"]);
    await rt.completeTask(T, rt.listTasks(T, ALL).find((t) => t.assignee === "cy")!.id, {}, actor);
    expect(open(rt, i.id)).toEqual(["done"]);
  });

  test("a sequential multi-instance with a cardinality runs its instances one after another with loopCounter", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "seq",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="step"/>
      <userTask id="step" name="Step \${loopCounter}"><multiInstanceLoopCharacteristics isSequential="true"><loopCardinality>3</loopCardinality></multiInstanceLoopCharacteristics></userTask>
      <sequenceFlow id="f1" sourceRef="step" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "s.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "seq" });
    const seen: string[] = [];
    for (let k = 0; k < 3; k++) {
      const t = rt.listTasks(T, ALL, { instanceId: i.id });
      expect(t).toHaveLength(1);
      seen.push(t[0].name);
      await rt.completeTask(T, t[0].id, {}, actor);
    }
    expect(seen).toEqual(["Step 0", "Step 1", "Step 2"]);
    expect(rt.getInstance(T, i.id).ended).toBe(true);
  });

  test("an error inside a multi-instance subprocess is caught on the multi-instance activity and cancels the other instances", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "mie",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="sub"/>
      <subProcess id="sub"><multiInstanceLoopCharacteristics isSequential="false"><loopCardinality>3</loopCardinality></multiInstanceLoopCharacteristics>
        <startEvent id="ss"/><sequenceFlow id="a" sourceRef="ss" targetRef="t"/><userTask id="t"/>
        <sequenceFlow id="b" sourceRef="t" targetRef="gw"/><exclusiveGateway id="gw" default="ok"/>
        <sequenceFlow id="ok" sourceRef="gw" targetRef="se"/><endEvent id="se"/>
        <sequenceFlow id="bad" sourceRef="gw" targetRef="ee"><conditionExpression>\${fail}</conditionExpression></sequenceFlow>
        <endEvent id="ee"><errorEventDefinition errorRef="boom"/></endEvent></subProcess>
      <boundaryEvent id="c" attachedToRef="sub"><errorEventDefinition/></boundaryEvent>
      <sequenceFlow id="f1" sourceRef="c" targetRef="handled"/><userTask id="handled"/>
      <sequenceFlow id="f2" sourceRef="sub" targetRef="normal"/><userTask id="normal"/>`,
      ),
      { fileName: "m.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "mie", variables: { fail: false } });
    const ts = rt.listTasks(T, ALL, { instanceId: i.id });
    await rt.completeTask(T, ts[0].id, {}, actor);
    await rt.completeTask(T, ts[1].id, { fail: true }, actor);
    expect(open(rt, i.id)).toEqual(["handled"]);
  });
});

describe("first steps in called processes", () => {
  test("the start answer lists the open task of a process called right away", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "inner",
        `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="ct"/><userTask id="ct" name="Inner"/>`,
      ),
      { fileName: "c.bpmn", createdBy: null },
    );
    await rt.deploy(
      T,
      bpmn(
        "outer",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/><callActivity id="call" calledElement="inner"/>`,
      ),
      { fileName: "p.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "outer" });
    expect(i.activeTasks.map((t) => t.name)).toEqual(["Inner"]);
    expect(i.activeTasks[0].instanceId).not.toBe(i.id);
  });

  test("listeners in a model are reported as not run", async () => {
    const { rt } = makeRuntime();
    const d = await rt.deploy(
      T,
      bpmn(
        "lst",
        `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/>
      <userTask id="t"><extensionElements><flowable:taskListener event="create" class="org.Foo"/></extensionElements></userTask>`,
      ),
      { fileName: "l.bpmn", createdBy: null },
    );
    expect(d.warnings.join()).toMatch(/userTask 't' declares taskListeners, which this engine does not run/);
  });
});
