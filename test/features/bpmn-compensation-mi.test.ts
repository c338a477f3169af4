import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

// Compensation thrown at a multi-instance subprocess (activityRef names the MI scope): every completed instance is
// undone, each with its own variables, as Camunda's CompensateEventTest expects (5 instances, 5 compensations).
const withAssoc = (xml: string, assocs: string) => xml.replace("</process>", `${assocs}</process>`);

const miSub = (boundaryOn: "inner" | "sub") =>
  withAssoc(
    bpmn(
      `miComp${boundaryOn}`,
      `
  <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="scope"/>
  <subProcess id="scope">
    <multiInstanceLoopCharacteristics isSequential="false"><loopCardinality>5</loopCardinality></multiInstanceLoopCharacteristics>
    <startEvent id="ss"/><sequenceFlow id="g0" sourceRef="ss" targetRef="book"/>
    <scriptTask id="book" scriptFormat="feel"><script>{booked: loopCounter}</script></scriptTask>
    ${
      boundaryOn === "inner"
        ? `<boundaryEvent id="undoBook" attachedToRef="book"><compensateEventDefinition/></boundaryEvent>
    <scriptTask id="cancelBook" scriptFormat="javascript" isForCompensation="true"><script>execution.setVariable('undone', (execution.getVariable('undone') || []).concat([execution.getVariable('loopCounter')]))</script></scriptTask>`
        : ""
    }
    <sequenceFlow id="g1" sourceRef="book" targetRef="se"/><endEvent id="se"/>
    ${boundaryOn === "inner" ? `<association id="a1" sourceRef="undoBook" targetRef="cancelBook"/>` : ""}
  </subProcess>
  ${
    boundaryOn === "sub"
      ? `<boundaryEvent id="undoScope" attachedToRef="scope"><compensateEventDefinition/></boundaryEvent>
  <scriptTask id="cancelScope" scriptFormat="javascript" isForCompensation="true"><script>execution.setVariable('undone', (execution.getVariable('undone') || []).concat([execution.getVariable('loopCounter')]))</script></scriptTask>`
      : ""
  }
  <sequenceFlow id="f1" sourceRef="scope" targetRef="throw"/>
  <intermediateThrowEvent id="throw"><compensateEventDefinition activityRef="scope"/></intermediateThrowEvent>
  <sequenceFlow id="f2" sourceRef="throw" targetRef="after"/><userTask id="after"/>`,
      "",
    ),
    boundaryOn === "sub" ? `<association id="a2" sourceRef="undoScope" targetRef="cancelScope"/>` : "",
  );

describe("compensation of a multi-instance subprocess", () => {
  test("activityRef on the MI subprocess undoes the compensable activity of each of its 5 instances", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(T, miSub("inner"), { fileName: "mi.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "miCompinner" });
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["after"]);
    const undone = rt.getVariables(T, i.id).undone as number[];
    expect([...undone].sort()).toEqual([0, 1, 2, 3, 4]);
  });

  test("a compensate boundary on the MI subprocess itself runs its handler once per completed instance", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(T, miSub("sub"), { fileName: "mi2.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "miCompsub" });
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["after"]);
    const undone = rt.getVariables(T, i.id).undone as number[];
    expect([...undone].sort()).toEqual([0, 1, 2, 3, 4]);
  });
});

// The same scope in the variants Camunda's and Flowable's compensation tests use: sequential instances, a collection
// with an element variable (each handler sees its own element), a throw without activityRef, an end event throw, a
// compensation event subprocess inside the multi-instance subprocess, and user-task handlers (one per instance, one
// at a time, most recent first).
const record = `execution.setVariable('undoCount', (execution.getVariable('undoCount') || 0) + 1); execution.setVariable('seen', (execution.getVariable('seen') || []).concat([execution.getVariable('item') ?? execution.getVariable('loopCounter')]))`;
type Variant = { seq?: boolean; collection?: boolean; broadcast?: boolean; endThrow?: boolean; eventSub?: boolean };
function variant(id: string, v: Variant): string {
  const mi = v.collection
    ? `<multiInstanceLoopCharacteristics isSequential="${!!v.seq}" camunda:collection="\${items}" camunda:elementVariable="item"/>`
    : `<multiInstanceLoopCharacteristics isSequential="${!!v.seq}"><loopCardinality>5</loopCardinality></multiInstanceLoopCharacteristics>`;
  const handler = v.eventSub
    ? `<subProcess id="compSub" triggeredByEvent="true"><startEvent id="cs"><compensateEventDefinition/></startEvent>
       <sequenceFlow id="c1" sourceRef="cs" targetRef="undo"/><scriptTask id="undo" scriptFormat="javascript"><script>${record}</script></scriptTask>
       <sequenceFlow id="c2" sourceRef="undo" targetRef="ce"/><endEvent id="ce"/></subProcess>`
    : `<boundaryEvent id="b" attachedToRef="book"><compensateEventDefinition/></boundaryEvent>
       <scriptTask id="undo" scriptFormat="javascript" isForCompensation="true"><script>${record}</script></scriptTask>
       <association id="a1" sourceRef="b" targetRef="undo"/>`;
  const definition = `<compensateEventDefinition${v.broadcast ? "" : ' activityRef="scope"'}/>`;
  const thrower = v.endThrow
    ? `<endEvent id="throw">${definition}</endEvent>`
    : `<intermediateThrowEvent id="throw">${definition}</intermediateThrowEvent>
       <sequenceFlow id="f2" sourceRef="throw" targetRef="after"/><receiveTask id="after"/>`;
  return bpmn(
    id,
    `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="scope"/>
  <subProcess id="scope">${mi}
    <startEvent id="ss"/><sequenceFlow id="g0" sourceRef="ss" targetRef="book"/>
    <serviceTask id="book" camunda:expression="\${true}"/>
    <sequenceFlow id="g1" sourceRef="book" targetRef="se"/><endEvent id="se"/>
    ${handler}
  </subProcess>
  <sequenceFlow id="f1" sourceRef="scope" targetRef="throw"/>${thrower}`,
  );
}

describe("compensation of a multi-instance subprocess, in the variants of Camunda's and Flowable's tests", () => {
  const variants: Record<string, Variant> = {
    sequential: { seq: true },
    "a collection, each handler with its element": { collection: true },
    "a sequential collection": { collection: true, seq: true },
    "a throw without activityRef": { broadcast: true },
    "an end event throw": { endThrow: true },
    "a compensation event subprocess in the instances": { eventSub: true },
  };
  for (const [name, v] of Object.entries(variants)) {
    test(`${name}: 5 compensations, most recent first`, async () => {
      const { rt } = makeRuntime();
      const key = `miVariant${Object.keys(variants).indexOf(name)}`;
      await rt.deploy(T, variant(key, v), { fileName: `${key}.bpmn`, createdBy: null });
      const i = await rt.startInstance(T, { definitionKey: key, variables: { items: ["a", "b", "c", "d", "e"] } });
      const vars = rt.getVariables(T, i.id);
      expect(vars.undoCount).toBe(5);
      if (!v.eventSub) expect(vars.seen).toEqual(v.collection ? ["e", "d", "c", "b", "a"] : [4, 3, 2, 1, 0]);
    });
  }

  test("user-task handlers: one per completed instance, each in turn", async () => {
    const { rt } = makeRuntime();
    const xml = variant("miUserUndo", {}).replace(
      /<scriptTask id="undo"[\s\S]*?<\/scriptTask>/,
      `<userTask id="undo" isForCompensation="true"/>`,
    );
    await rt.deploy(T, xml, { fileName: "miUserUndo.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "miUserUndo" });
    const actor = { userId: "u", channel: "REST" as const };
    let handled = 0;
    for (let open = rt.listTasks(T, ALL); open.length > 0; open = rt.listTasks(T, ALL)) {
      expect(open.map((t) => t.activityId)).toEqual(["undo"]);
      await rt.completeTask(T, open[0].id, {}, actor);
      handled++;
    }
    expect(handled).toBe(5);
    expect(rt.getInstance(T, i.id).activeActivityIds).toEqual(["after"]); // past the throw, in the receive task
  });
});
