import { describe, expect, test } from "bun:test";
import { bpmn, makeRuntime, T } from "../fixtures/bpmn/harness";

type RT = ReturnType<typeof makeRuntime>["rt"];
const deploy = (rt: RT, key: string, body: string, extra = "") =>
  rt.deploy(T, bpmn(key, body, extra), { fileName: `${key}.bpmn`, createdBy: null });
describe("JavaScript in models, in the QuickJS sandbox", () => {
  const model = (script: string, cond = "execution.getVariable('n') > 10", extra = "") => `
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="js"/>
    <scriptTask id="js" scriptFormat="javascript" camunda:resultVariable="out" ${extra}><script><![CDATA[${script}]]></script></scriptTask>
    <sequenceFlow id="f1" sourceRef="js" targetRef="gw"/><exclusiveGateway id="gw" default="small"/>
    <sequenceFlow id="big" sourceRef="gw" targetRef="bigTask"><conditionExpression xsi:type="tFormalExpression" language="javascript" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><![CDATA[${cond}]]></conditionExpression></sequenceFlow>
    <sequenceFlow id="small" sourceRef="gw" targetRef="smallTask"/><userTask id="bigTask"/><userTask id="smallTask"/>`;

  test("a script reads and writes variables through execution; a JavaScript condition picks the flow", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "js1",
      model("const n = execution.getVariable('n'); execution.setVariable('n', n * 3); ({ doubled: n * 2 })"),
    );
    const big = await rt.startInstance(T, { definitionKey: "js1", variables: { n: 4 } });
    expect(big.activeTasks.map((t) => t.activityId)).toEqual(["bigTask"]);
    expect(rt.getVariables(T, big.id)).toMatchObject({ n: 12, out: { doubled: 8 } });
    const small = await rt.startInstance(T, { definitionKey: "js1", variables: { n: 2 } });
    expect(small.activeTasks.map((t) => t.activityId)).toEqual(["smallTask"]);
  });

  test("the sandbox has no I/O, no timers, nothing of the host", async () => {
    const { rt } = makeRuntime();
    await deploy(
      rt,
      "js2",
      model(
        "[typeof require, typeof process, typeof fetch, typeof setTimeout, typeof Bun, typeof globalThis.console].join(',')",
      ),
    );
    const i = await rt.startInstance(T, { definitionKey: "js2", variables: { n: 1 } });
    expect(rt.getVariables(T, i.id).out).toBe("undefined,undefined,undefined,undefined,undefined,undefined");
  });

  test("a runaway loop becomes a failed job with a clear message; the service goes on", async () => {
    const { rt } = makeRuntime();
    await deploy(rt, "js3", model("while (true) {}", undefined, `flowable:async="true" camunda:asyncBefore="true"`));
    const i = await rt.startInstance(T, { definitionKey: "js3", variables: { n: 1 } });
    // The job ends (the test's timeout would say otherwise) with the limit named: the loop was stopped.
    await rt.runDueJobs();
    const [job] = rt.jobsOfInstance(T, i.id);
    expect(job.exception).toMatch(/JavaScript script at 'js' failed: the script ran longer than its CPU-time limit/);
    // A synchronous runaway script refuses the command itself, with the same message (422, never 500).
    await deploy(rt, "js4", model("for (;;) {}"));
    // Caught rather than `expect(...).rejects`: bun's matcher, waiting on a promise a worker settles, missed the
    // worker's answer after failed jobs (seen on bun 1.4.4 with worker threads), so the pool's deadline answered.
    const refused = await rt.startInstance(T, { definitionKey: "js4", variables: { n: 1 } }).catch((e) => e);
    expect(refused).toMatchObject({ code: "UNPROCESSABLE", message: expect.stringMatching(/CPU-time limit/) });
    // Native calls the interrupt handler cannot reach: stopped by the worker's deadline or its memory cap.
    await deploy(rt, "js5", model("const a = []; for (;;) a.push('x'.repeat(1e5));"));
    const bomb = await rt.startInstance(T, { definitionKey: "js5", variables: { n: 1 } }).catch((e) => e);
    expect(bomb).toMatchObject({ code: "UNPROCESSABLE", message: expect.stringMatching(/memory limit|time limit/) });
  });

  test("Groovy and other languages stay refused at deploy with a precise 400; JUEL scripts use the JUEL subset", async () => {
    const { rt } = makeRuntime();
    await expect(
      deploy(rt, "groovy", model("x = 1").replace('scriptFormat="javascript"', 'scriptFormat="groovy"')),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/scriptFormat 'groovy'/) });
    await expect(
      deploy(rt, "groovycond", model("1").replace('language="javascript"', 'language="groovy"')),
    ).rejects.toMatchObject({ message: expect.stringMatching(/uses a 'groovy' condition/) });
    await deploy(
      rt,
      "juel",
      model("${n + 1}", "execution.getVariable('out') > 10").replace(
        'scriptFormat="javascript"',
        'scriptFormat="juel"',
      ),
    );
    const i = await rt.startInstance(T, { definitionKey: "juel", variables: { n: 10 } });
    expect(rt.getVariables(T, i.id).out).toBe(11);
    expect(i.activeTasks.map((t) => t.activityId)).toEqual(["bigTask"]);
  });
});
