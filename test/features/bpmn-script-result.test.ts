import { describe, expect, test } from "bun:test";
import { bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

// A script task's result variable (camunda:resultVariable / flowable:resultVariable): the script's value is stored
// under that name, whatever the script language.
const model = (key: string, attrs: string, format: string, script: string) =>
  bpmn(
    key,
    `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="calc"/>
    <scriptTask id="calc" scriptFormat="${format}" ${attrs}><script><![CDATA[${script}]]></script></scriptTask>
    <sequenceFlow id="f1" sourceRef="calc" targetRef="gw"/><exclusiveGateway id="gw" default="low"/>
    <sequenceFlow id="high" sourceRef="gw" targetRef="big"><conditionExpression>\${total > 100}</conditionExpression></sequenceFlow>
    <sequenceFlow id="low" sourceRef="gw" targetRef="small"/><userTask id="big"/><userTask id="small"/>`,
  );

describe("a script task's result variable", () => {
  const cases: Array<[string, string, string, string]> = [
    ["camunda JavaScript", 'camunda:resultVariable="total"', "javascript", "execution.getVariable('price') * 3"],
    [
      "flowable JavaScript",
      'flowable:resultVariable="total"',
      "JavaScript",
      "const p = execution.getVariable('price'); p * 3",
    ],
    ["camunda JUEL", 'camunda:resultVariable="total"', "juel", "${price * 3}"],
    ["flowable FEEL", 'flowable:resultVariable="total"', "feel", "price * 3"],
  ];
  for (const [name, attrs, format, script] of cases)
    test(`${name}: the script's value is stored under the name and a gateway reads it`, async () => {
      const { rt } = makeRuntime();
      const key = `rv${name.replace(/\W/g, "")}`;
      await rt.deploy(T, model(key, attrs, format, script), { fileName: `${key}.bpmn`, createdBy: null });
      const big = await rt.startInstance(T, { definitionKey: key, variables: { price: 40 } });
      expect(rt.getVariables(T, big.id).total).toBe(120);
      expect(big.activeTasks.map((t) => t.activityId)).toEqual(["big"]);
      const small = await rt.startInstance(T, { definitionKey: key, variables: { price: 2 } });
      expect(rt.getVariables(T, small.id).total).toBe(6);
      expect(small.activeTasks.map((t) => t.activityId)).toEqual(["small"]);
    });

  test("a JavaScript script without a value stores null under the result variable", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      model("rvNone", 'camunda:resultVariable="total"', "javascript", "execution.setVariable('x', 1);"),
      {
        fileName: "n.bpmn",
        createdBy: null,
      },
    );
    const i = await rt.startInstance(T, { definitionKey: "rvNone", variables: { price: 1 } });
    expect(rt.getVariables(T, i.id)).toMatchObject({ x: 1, total: null });
  });
});
