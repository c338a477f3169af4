import { describe, expect, test } from "bun:test";
import { ALL, bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

const actor = { userId: "u1", channel: "REST" as const };
const names = (rt: ReturnType<typeof makeRuntime>["rt"], id: string) =>
  rt
    .listTasks(T, ALL, { instanceId: id })
    .map((t) => t.activityId)
    .sort();

describe("gateways", () => {
  test("an exclusive gateway takes the first true condition and falls back to its default flow", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "x",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="gw"/>
      <exclusiveGateway id="gw" default="fd"/>
      <sequenceFlow id="fa" sourceRef="gw" targetRef="big"><conditionExpression>\${amount > 100}</conditionExpression></sequenceFlow>
      <sequenceFlow id="fb" sourceRef="gw" targetRef="small"><conditionExpression>amount &lt; 10</conditionExpression></sequenceFlow>
      <sequenceFlow id="fd" sourceRef="gw" targetRef="other"/>
      <userTask id="big"/><userTask id="small"/><userTask id="other"/>`,
      ),
      { fileName: "x.bpmn", createdBy: null },
    );
    for (const [amount, want] of [
      [500, "big"],
      [5, "small"],
      [50, "other"],
    ] as const) {
      const i = await rt.startInstance(T, { definitionKey: "x", variables: { amount } });
      expect(i.activeTasks.map((t) => t.activityId)).toEqual([want]);
    }
  });

  test("an exclusive gateway with no true condition and no default refuses the start and leaves nothing behind", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "x",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="gw"/>
      <exclusiveGateway id="gw"/>
      <sequenceFlow id="fa" sourceRef="gw" targetRef="a"><conditionExpression>\${amount > 100}</conditionExpression></sequenceFlow>
      <sequenceFlow id="fb" sourceRef="gw" targetRef="a"><conditionExpression>\${amount &lt; 0}</conditionExpression></sequenceFlow>
      <userTask id="a"/>`,
      ),
      { fileName: "x.bpmn", createdBy: null },
    );
    await expect(rt.startInstance(T, { definitionKey: "x", variables: { amount: 5 } })).rejects.toThrow(
      /No outgoing sequence flow of exclusive gateway 'gw'/,
    );
    expect(rt.listInstances(T, ALL).totalElements).toBe(0);
    expect(rt.listTasks(T, ALL)).toHaveLength(0);
  });

  test("an inclusive gateway forks on every true condition and joins only the branches that were taken", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "inc",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <inclusiveGateway id="fork"/>
      <sequenceFlow id="fa" sourceRef="fork" targetRef="a"><conditionExpression>\${x >= 1}</conditionExpression></sequenceFlow>
      <sequenceFlow id="fb" sourceRef="fork" targetRef="b"><conditionExpression>\${x >= 2}</conditionExpression></sequenceFlow>
      <sequenceFlow id="fc" sourceRef="fork" targetRef="c"><conditionExpression>\${x >= 3}</conditionExpression></sequenceFlow>
      <userTask id="a"/><userTask id="b"/><userTask id="c"/>
      <sequenceFlow id="ja" sourceRef="a" targetRef="join"/><sequenceFlow id="jb" sourceRef="b" targetRef="join"/><sequenceFlow id="jc" sourceRef="c" targetRef="join"/>
      <inclusiveGateway id="join"/><sequenceFlow id="fe" sourceRef="join" targetRef="after"/><userTask id="after"/>`,
      ),
      { fileName: "i.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "inc", variables: { x: 2 } });
    expect(names(rt, i.id)).toEqual(["a", "b"]);
    await rt.completeTask(
      T,
      rt.listTasks(T, ALL, { instanceId: i.id }).find((t) => t.activityId === "a")!.id,
      {},
      actor,
    );
    expect(names(rt, i.id)).toEqual(["b"]);
    await rt.completeTask(T, rt.listTasks(T, ALL, { instanceId: i.id })[0].id, {}, actor);
    expect(names(rt, i.id)).toEqual(["after"]);
  });

  test("an inclusive join fires once a branch that can no longer reach it has ended elsewhere", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "inc2",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <parallelGateway id="fork"/>
      <sequenceFlow id="fa" sourceRef="fork" targetRef="a"/><sequenceFlow id="fb" sourceRef="fork" targetRef="b"/>
      <userTask id="a"/><userTask id="b"/>
      <sequenceFlow id="ja" sourceRef="a" targetRef="join"/>
      <sequenceFlow id="bx" sourceRef="b" targetRef="xg"/>
      <exclusiveGateway id="xg" default="toEnd"/>
      <sequenceFlow id="toJoin" sourceRef="xg" targetRef="join"><conditionExpression>\${go}</conditionExpression></sequenceFlow>
      <sequenceFlow id="toEnd" sourceRef="xg" targetRef="e2"/><endEvent id="e2"/>
      <inclusiveGateway id="join"/><sequenceFlow id="fe" sourceRef="join" targetRef="after"/><userTask id="after"/>`,
      ),
      { fileName: "i.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "inc2", variables: { go: false } });
    await rt.completeTask(
      T,
      rt.listTasks(T, ALL, { instanceId: i.id }).find((t) => t.activityId === "a")!.id,
      {},
      actor,
    );
    expect(names(rt, i.id)).toEqual(["b"]);
    await rt.completeTask(T, rt.listTasks(T, ALL, { instanceId: i.id })[0].id, {}, actor);
    expect(names(rt, i.id)).toEqual(["after"]);
  });

  test("a parallel join after an exclusive merge waits for both branches and moves on once", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "pm",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <parallelGateway id="fork"/>
      <sequenceFlow id="f1" sourceRef="fork" targetRef="a"/><sequenceFlow id="f2" sourceRef="fork" targetRef="b"/>
      <userTask id="a"/><userTask id="b"/>
      <sequenceFlow id="f3" sourceRef="a" targetRef="merge"/>
      <exclusiveGateway id="merge"/>
      <sequenceFlow id="f4" sourceRef="merge" targetRef="join"/>
      <sequenceFlow id="f5" sourceRef="b" targetRef="join"/>
      <parallelGateway id="join"/>
      <sequenceFlow id="f6" sourceRef="join" targetRef="after"/><userTask id="after"/>`,
      ),
      { fileName: "p.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "pm" });
    expect(names(rt, i.id)).toEqual(["a", "b"]);
    for (const t of rt.listTasks(T, ALL, { instanceId: i.id })) await rt.completeTask(T, t.id, {}, actor);
    expect(names(rt, i.id)).toEqual(["after"]);
  });

  test("two concurrent completions of parallel branches reaching a join move the process on exactly once", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "pj",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <parallelGateway id="fork"/>
      <sequenceFlow id="f1" sourceRef="fork" targetRef="a"/><sequenceFlow id="f2" sourceRef="fork" targetRef="b"/>
      <userTask id="a"/><userTask id="b"/>
      <sequenceFlow id="f3" sourceRef="a" targetRef="join"/><sequenceFlow id="f4" sourceRef="b" targetRef="join"/>
      <parallelGateway id="join"/><sequenceFlow id="f5" sourceRef="join" targetRef="after"/><userTask id="after"/>`,
      ),
      { fileName: "p.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "pj" });
    const [t1, t2] = rt.listTasks(T, ALL, { instanceId: i.id });
    await Promise.all([rt.completeTask(T, t1.id, {}, actor), rt.completeTask(T, t2.id, {}, actor)]);
    expect(names(rt, i.id)).toEqual(["after"]);
    expect(rt.historyActivities(T, i.id).filter((a) => a.activityId === "after")).toHaveLength(1);
  });

  test("an event-based gateway takes the branch of the first event and disarms the others", async () => {
    const { rt, clock } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "ebg",
        `
      <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="gw"/>
      <eventBasedGateway id="gw"/>
      <sequenceFlow id="f1" sourceRef="gw" targetRef="msg"/><sequenceFlow id="f2" sourceRef="gw" targetRef="tmr"/>
      <intermediateCatchEvent id="msg"><messageEventDefinition messageRef="m"/></intermediateCatchEvent>
      <intermediateCatchEvent id="tmr"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></intermediateCatchEvent>
      <sequenceFlow id="f3" sourceRef="msg" targetRef="paid"/><sequenceFlow id="f4" sourceRef="tmr" targetRef="late"/>
      <userTask id="paid"/><userTask id="late"/>`,
        `<message id="m" name="payment"/>`,
      ),
      { fileName: "e.bpmn", createdBy: null },
    );
    const a = await rt.startInstance(T, { definitionKey: "ebg", businessKey: "A" });
    const b = await rt.startInstance(T, { definitionKey: "ebg", businessKey: "B" });
    await rt.correlateMessage(T, "payment", { businessKey: "A" });
    expect(names(rt, a.id)).toEqual(["paid"]);
    expect(rt.jobsOfInstance(T, a.id)).toHaveLength(0);
    clock.advance(3_600_001);
    await rt.runDueJobs();
    expect(names(rt, b.id)).toEqual(["late"]);
    await expect(rt.correlateMessage(T, "payment", { businessKey: "B" })).rejects.toThrow(
      /No process instance or definition waits for message 'payment'/,
    );
  });
});
