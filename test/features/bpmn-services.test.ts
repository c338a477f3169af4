import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

describe("service, script and business-rule tasks", () => {
  test("a business-rule task evaluates its decision through the injected evaluator and stores the result", async () => {
    const seen: unknown[] = [];
    const { rt } = makeRuntime({
      decisions: async (tenant, key, vars) => {
        seen.push([tenant, key, vars.amount]);
        return { result: { risk: "low" } };
      },
    });
    await rt.deploy(
      T,
      bpmn(
        "br",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="r"/>
      <businessRuleTask id="r" flowable:decisionTableReferenceKey="riskRules" camunda:resultVariable="assessment"/>
      <sequenceFlow id="f1" sourceRef="r" targetRef="t"/><userTask id="t"/>`,
      ),
      { fileName: "b.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "br", variables: { amount: 10 } });
    expect(seen).toEqual([[T, "riskRules", 10]]);
    expect(rt.getVariables(T, i.id)).toEqual({ amount: 10, assessment: { risk: "low" } });
  });

  test("a failing decision becomes an incident on the step instead of losing the instance", async () => {
    const { rt } = makeRuntime({
      decisions: () => {
        throw new Error("no rule matched the input");
      },
    });
    await rt.deploy(
      T,
      bpmn(
        "brf",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="r"/>
      <businessRuleTask id="r" camunda:decisionRef="riskRules"/><sequenceFlow id="f1" sourceRef="r" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "b.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "brf" });
    expect(rt.failedJobs(T)).toMatchObject([
      {
        instanceId: i.id,
        activityId: "r",
        state: "DEADLETTER",
        exception: "Decision 'riskRules' failed: no rule matched the input",
      },
    ]);
    expect(rt.monitor(T, "brf").activities[0]).toMatchObject({ activityId: "r", byReason: { JOB_FAILED: 1 } });
  });

  test("an expression service task and a FEEL script compute variables", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "calc",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="x"/>
      <serviceTask id="x" flowable:expression="\${price * qty}" flowable:resultVariable="net"/>
      <sequenceFlow id="f1" sourceRef="x" targetRef="y"/>
      <scriptTask id="y" scriptFormat="feel"><script>{ gross: net * 1.2, big: net > 100 }</script></scriptTask>
      <sequenceFlow id="f2" sourceRef="y" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "c.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "calc", variables: { price: 50, qty: 3 } });
    expect(rt.getInstance(T, i.id)).toMatchObject({ ended: true, variables: { net: 150, gross: 180, big: true } });
  });

  test("the set-variables delegate with fields, and a custom delegate registered by the service layer", async () => {
    const { rt } = makeRuntime();
    rt.delegates.register({
      name: "greet",
      description: "says hello",
      parameters: [{ name: "who", type: "string", required: true, description: "name" }],
      execute: async (c) => {
        c.setVariable("greeting", `hello ${c.params.who}`);
      },
    });
    await rt.deploy(
      T,
      bpmn(
        "dl",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="a"/>
      <serviceTask id="a" flowable:delegateExpression="\${setVariables}"><extensionElements><flowable:field name="status"><flowable:string>new</flowable:string></flowable:field><flowable:field name="who" expression="\${customer}"/></extensionElements></serviceTask>
      <sequenceFlow id="f1" sourceRef="a" targetRef="b"/>
      <serviceTask id="b" camunda:class="org.example.Greet"><extensionElements><camunda:inputOutput><camunda:inputParameter name="who">\${who}</camunda:inputParameter></camunda:inputOutput></extensionElements></serviceTask>
      <sequenceFlow id="f2" sourceRef="b" targetRef="t"/><userTask id="t"/>`,
      ),
      { fileName: "d.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "dl", variables: { customer: "Ada" } });
    expect(rt.getVariables(T, i.id)).toEqual({ customer: "Ada", status: "new", who: "Ada", greeting: "hello Ada" });
    expect(rt.listDelegates().map((d) => d.name)).toContain("greet");
    expect(rt.listTasks(T, ALL)).toHaveLength(1);
  });
});
