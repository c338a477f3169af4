import { describe, expect, test } from "bun:test";
import { bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

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
