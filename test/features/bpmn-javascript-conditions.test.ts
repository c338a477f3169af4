import { describe, expect, test } from "bun:test";
import { bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

// JavaScript conditions answer from the script pool asynchronously: flow selection waits for them and keeps model order.
const cond = (id: string, src: string, target: string, source = "gw") =>
  `<sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}"><conditionExpression xsi:type="tFormalExpression" language="javascript" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><![CDATA[${src}]]></conditionExpression></sequenceFlow>`;

describe("JavaScript sequence-flow conditions", () => {
  test("an exclusive gateway takes the first true condition in model order and evaluates no further", async () => {
    const { rt } = makeRuntime();
    const body = `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="gw"/>
      <exclusiveGateway id="gw" default="d"/>
      ${cond("c1", "execution.setVariable('seen1', true); execution.getVariable('n') > 10", "big")}
      ${cond("c2", "execution.setVariable('seen2', true); execution.getVariable('n') > 1", "mid")}
      ${cond("c3", "execution.setVariable('seen3', true); true", "any")}
      <sequenceFlow id="d" sourceRef="gw" targetRef="none"/>
      <userTask id="big"/><userTask id="mid"/><userTask id="any"/><userTask id="none"/>`;
    await rt.deploy(T, bpmn("xg", body), { fileName: "xg.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "xg", variables: { n: 5 } });
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["mid"]);
    const vars = rt.getVariables(T, i.id);
    expect(vars).toMatchObject({ seen1: true, seen2: true });
    expect(vars.seen3).toBeUndefined();
  });

  test("an inclusive fork and the flows of a task take every true JavaScript condition, else the default", async () => {
    const { rt } = makeRuntime();
    const body = `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="gw"/>
      <inclusiveGateway id="gw" default="d"/>
      ${cond("c1", "execution.getVariable('n') > 1", "a")}
      ${cond("c2", "execution.getVariable('n') > 2", "b")}
      <sequenceFlow id="d" sourceRef="gw" targetRef="t"/>
      <userTask id="a"/><userTask id="b"/>
      <task id="t"/>
      ${cond("t1", "execution.getVariable('n') === 0", "zero", "t")}
      <userTask id="zero"/>`;
    await rt.deploy(T, bpmn("ig", body), { fileName: "ig.bpmn", createdBy: null });
    const both = await rt.startInstance(T, { definitionKey: "ig", variables: { n: 3 } });
    expect(both.activeTasks.map((t) => t.activityId).sort()).toEqual(["a", "b"]);
    const none = await rt.startInstance(T, { definitionKey: "ig", variables: { n: 0 } });
    // Nothing true at the gateway: the default leads to a plain task whose only flow has a JavaScript condition.
    expect(none.activeTasks.map((t) => t.activityId)).toEqual(["zero"]);
    const refused = await rt.startInstance(T, { definitionKey: "ig", variables: { n: -1 } }).catch((e) => e);
    expect(refused).toMatchObject({
      code: "UNPROCESSABLE",
      message: expect.stringMatching(/No outgoing sequence flow of 't'/),
    });
  });
});
