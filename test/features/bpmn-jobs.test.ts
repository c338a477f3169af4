import { describe, expect, test } from "bun:test";
import { createDelegateRegistry } from "../../engine/bpmn";
import { ALL, bpmn, makeRuntime, T, testClock } from "../fixtures/bpmn/harness";

const actor = { userId: "u1", channel: "REST" as const };

function flaky(failures: { left: number }) {
  const reg = createDelegateRegistry();
  reg.register({
    name: "flaky",
    description: "fails while failures.left > 0",
    parameters: [],
    execute(ctx) {
      if (failures.left-- > 0) throw new Error("remote system unavailable");
      ctx.setVariable("called", true);
    },
  });
  return reg;
}

const asyncModel = (cycle = "") =>
  bpmn(
    "job",
    `
  <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="call"/>
  <serviceTask id="call" flowable:async="true" flowable:class="flaky">${cycle ? `<extensionElements><flowable:failedJobRetryTimeCycle>${cycle}</flowable:failedJobRetryTimeCycle></extensionElements>` : ""}</serviceTask>
  <sequenceFlow id="f1" sourceRef="call" targetRef="after"/><userTask id="after"/>`,
  );

describe("jobs", () => {
  test("an async service task runs in the job executor, not in the starting call", async () => {
    const failures = { left: 0 };
    const { rt } = makeRuntime({ delegates: flaky(failures) });
    await rt.deploy(T, asyncModel(), { fileName: "j.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "job" });
    expect(i.activeTasks).toHaveLength(0);
    expect(rt.monitor(T, "job").activities).toEqual([
      { activityId: "call", activityName: "call", activityType: "serviceTask", count: 1, byReason: { EXECUTING: 1 } },
    ]);
    expect(await rt.runDueJobs()).toBe(1);
    expect(rt.getInstance(T, i.id)).toMatchObject({ variables: { called: true } });
    expect(rt.listTasks(T, ALL).map((t) => t.activityId)).toEqual(["after"]);
  });

  test("a job failing three times goes to the dead-letter queue, and a manual retry that succeeds moves the process on", async () => {
    const failures = { left: 3 };
    const { rt, clock } = makeRuntime({ delegates: flaky(failures) });
    await rt.deploy(T, asyncModel(), { fileName: "j.bpmn", createdBy: null });
    const i = await rt.startInstance(T, { definitionKey: "job" });
    await rt.runDueJobs();
    const exception = "Service task 'call' (flaky) failed: remote system unavailable"; // a delegate failure
    const first = { instanceId: i.id, activityId: "call", state: "EXECUTABLE", retries: 2, exception };
    expect(rt.failedJobs(T)).toMatchObject([first]);
    expect(rt.monitor(T, "job").activities[0].byReason).toEqual({ JOB_RETRYING: 1 });
    expect(await rt.runDueJobs()).toBe(0);
    clock.advance(10_000);
    await rt.runDueJobs();
    clock.advance(10_000);
    await rt.runDueJobs();
    const [dead] = rt.failedJobs(T);
    expect(dead).toMatchObject({ state: "DEADLETTER", retries: 0 });
    expect(rt.monitor(T, "job").activities[0].byReason).toEqual({ JOB_FAILED: 1 });
    expect(rt.monitorItems(T, "job", "call")).toEqual([
      {
        instanceId: i.id,
        businessKey: null,
        startTime: expect.any(String),
        reason: "JOB_FAILED",
        errorMessage: exception,
      },
    ]);
    clock.advance(3_600_000);
    expect(await rt.runDueJobs()).toBe(0);
    await rt.retryJob(T, dead.id);
    expect(await rt.runDueJobs()).toBe(1);
    expect(rt.failedJobs(T)).toEqual([]);
    expect(rt.listTasks(T, ALL).map((t) => t.activityId)).toEqual(["after"]);
  });

  test("failedJobRetryTimeCycle sets the attempts and the wait between them", async () => {
    const failures = { left: 10 };
    const { rt, clock } = makeRuntime({ delegates: flaky(failures) });
    await rt.deploy(T, asyncModel("R5/PT10M"), { fileName: "j.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "job" });
    await rt.runDueJobs();
    expect(rt.failedJobs(T)[0].retries).toBe(4);
    clock.advance(9 * 60_000);
    await rt.runDueJobs();
    expect(rt.failedJobs(T)[0].retries).toBe(4);
    clock.advance(60_000);
    await rt.runDueJobs();
    expect(rt.failedJobs(T)[0].retries).toBe(3);
  });

  test("a job moved to dead-letter by hand stops retrying", async () => {
    const failures = { left: 1 };
    const { rt, clock } = makeRuntime({ delegates: flaky(failures) });
    await rt.deploy(T, asyncModel(), { fileName: "j.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "job" });
    await rt.runDueJobs();
    const [j] = rt.failedJobs(T);
    expect(await rt.deadletterJob(T, j.id)).toMatchObject({ state: "DEADLETTER", retries: 0 });
    clock.advance(60_000);
    expect(await rt.runDueJobs()).toBe(0);
    await expect(rt.retryJob("other-tenant", j.id)).rejects.toThrow(/not found/);
  });

  test("an unknown delegate deploys with a warning and parks the instance on an incident", async () => {
    const { rt } = makeRuntime();
    const d = await rt.deploy(
      T,
      bpmn(
        "unk",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="x"/>
      <serviceTask id="x" flowable:class="com.acme.Missing"/><sequenceFlow id="f1" sourceRef="x" targetRef="e"/><endEvent id="e"/>`,
      ),
      { fileName: "u.bpmn", createdBy: null },
    );
    expect(d.warnings.join("\n")).toMatch(/unknown implementation 'com.acme.Missing'/);
    const i = await rt.startInstance(T, { definitionKey: "unk" });
    expect(i.ended).toBe(false);
    expect(rt.failedJobs(T)).toMatchObject([
      {
        instanceId: i.id,
        activityId: "x",
        state: "DEADLETTER",
        exception: "No delegate named 'com.acme.Missing' is registered",
      },
    ]);
  });

  test("timers survive a restart: each due timer fires exactly once after reopening, none early", async () => {
    const clock = testClock();
    const first = makeRuntime({ clock });
    await first.rt.deploy(
      T,
      bpmn(
        "tm",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="w"/>
      <intermediateCatchEvent id="w"><timerEventDefinition><timeDuration>PT30M</timeDuration></timerEventDefinition></intermediateCatchEvent>
      <sequenceFlow id="f1" sourceRef="w" targetRef="t"/><userTask id="t"/>`,
      ),
      { fileName: "t.bpmn", createdBy: null },
    );
    const ids = [];
    for (let k = 0; k < 5; k++) {
      ids.push((await first.rt.startInstance(T, { definitionKey: "tm" })).id);
      clock.advance(60_000);
    }
    first.db.close();
    clock.advance(30 * 60_000 - 3 * 60_000);
    const again = makeRuntime({ path: first.path, clock }).rt;
    await again.runDueJobs();
    expect(again.listTasks(T, ALL)).toHaveLength(3); // due at +30, +31 and +32 minutes; +33 and +34 not yet
    clock.advance(10 * 60_000);
    await again.runDueJobs();
    await again.runDueJobs();
    expect(again.listTasks(T, ALL)).toHaveLength(5);
    expect(new Set(again.listTasks(T, ALL).map((t) => t.instanceId))).toEqual(new Set(ids));
  });

  test("two runtimes on the same file running due jobs fire each timer once", async () => {
    const clock = testClock();
    const a = makeRuntime({ clock });
    const b = makeRuntime({ path: a.path, clock }).rt;
    await a.rt.deploy(
      T,
      bpmn(
        "tm",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="w"/>
      <intermediateCatchEvent id="w"><timerEventDefinition><timeDuration>PT1M</timeDuration></timerEventDefinition></intermediateCatchEvent>
      <sequenceFlow id="f1" sourceRef="w" targetRef="t"/><userTask id="t"/>`,
      ),
      { fileName: "t.bpmn", createdBy: null },
    );
    for (let k = 0; k < 20; k++) await a.rt.startInstance(T, { definitionKey: "tm" });
    clock.advance(60_000);
    const [x, y] = await Promise.all([a.rt.runDueJobs(), b.runDueJobs()]);
    expect(x + y).toBe(20);
    expect(a.rt.listTasks(T, ALL)).toHaveLength(20);
  });
});

describe("transactions", () => {
  test("a failing step rolls back the whole start: no instance, no task, no variable", async () => {
    const { rt, db } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "rb",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <parallelGateway id="fork"/><sequenceFlow id="f1" sourceRef="fork" targetRef="t"/><sequenceFlow id="f2" sourceRef="fork" targetRef="bad"/>
      <userTask id="t"/><scriptTask id="bad" scriptFormat="feel"><script>{ x: 1 }</script></scriptTask>
      <sequenceFlow id="f3" sourceRef="bad" targetRef="gw"/><exclusiveGateway id="gw"/>
      <sequenceFlow id="f4" sourceRef="gw" targetRef="e"><conditionExpression>\${x > 5}</conditionExpression></sequenceFlow><endEvent id="e"/>`,
      ),
      { fileName: "r.bpmn", createdBy: null },
    );
    await expect(rt.startInstance(T, { definitionKey: "rb", variables: { v: 1 }, startedBy: "u1" })).rejects.toThrow(
      /No outgoing sequence flow/,
    );
    for (const table of [
      "process_instances",
      "executions",
      "tasks",
      "variables",
      "jobs",
      "activity_log",
      "involvements",
    ]) {
      expect((db.query(`SELECT COUNT(*) AS c FROM ${table}`).get() as { c: number }).c).toBe(0);
    }
  });

  test("a failing step during a task completion leaves the task open and the variables unchanged", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "rc",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
      <sequenceFlow id="f1" sourceRef="t" targetRef="gw"/><exclusiveGateway id="gw"/>
      <sequenceFlow id="f2" sourceRef="gw" targetRef="e"><conditionExpression>\${ok}</conditionExpression></sequenceFlow><endEvent id="e"/>`,
      ),
      { fileName: "r.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "rc", variables: { ok: false } });
    await expect(rt.completeTask(T, i.activeTasks[0].id, { note: "x" }, actor)).rejects.toThrow(/No outgoing/);
    expect(rt.getTask(T, i.activeTasks[0].id).state).toBe("OPEN");
    expect(rt.getVariables(T, i.id)).toEqual({ ok: false });
    await rt.completeTask(T, i.activeTasks[0].id, { ok: true }, actor);
    expect(rt.getInstance(T, i.id).ended).toBe(true);
  });

  test("completing the same task twice: the second completion is refused as a conflict", async () => {
    const { rt } = makeRuntime();
    await rt.deploy(
      T,
      bpmn(
        "c2",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>
      <sequenceFlow id="f1" sourceRef="t" targetRef="t2"/><userTask id="t2"/>`,
      ),
      { fileName: "c.bpmn", createdBy: null },
    );
    const i = await rt.startInstance(T, { definitionKey: "c2" });
    const results = await Promise.allSettled([
      rt.completeTask(T, i.activeTasks[0].id, {}, actor),
      rt.completeTask(T, i.activeTasks[0].id, {}, actor),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const rejected = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: "CONFLICT" });
    expect(rt.listTasks(T, ALL).map((t) => t.activityId)).toEqual(["t2"]);
  });
});

describe("optimistic concurrency", () => {
  test("two runtimes completing both branches of a join at once: one command retries on the new revision and the join fires once", async () => {
    const clock = testClock();
    let calls = 0;
    const slow = () => {
      const reg = createDelegateRegistry();
      // Awaiting lets the other command read the same revision before either commits.
      reg.register({
        name: "slow",
        description: "waits a tick",
        parameters: [],
        execute: async () => {
          calls++;
          await Bun.sleep(20);
        },
      });
      return reg;
    };
    const a = makeRuntime({ clock, delegates: slow() });
    const b = makeRuntime({ path: a.path, clock, delegates: slow() }).rt;
    await a.rt.deploy(
      T,
      bpmn(
        "cj",
        `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="fork"/>
      <parallelGateway id="fork"/><sequenceFlow id="f1" sourceRef="fork" targetRef="x"/><sequenceFlow id="f2" sourceRef="fork" targetRef="y"/>
      <userTask id="x"/><userTask id="y"/>
      <sequenceFlow id="f3" sourceRef="x" targetRef="sx"/><serviceTask id="sx" flowable:type="slow"/><sequenceFlow id="f4" sourceRef="sx" targetRef="join"/>
      <sequenceFlow id="f5" sourceRef="y" targetRef="sy"/><serviceTask id="sy" flowable:type="slow"/><sequenceFlow id="f6" sourceRef="sy" targetRef="join"/>
      <parallelGateway id="join"/><sequenceFlow id="f7" sourceRef="join" targetRef="after"/><userTask id="after"/>`,
      ),
      { fileName: "c.bpmn", createdBy: null },
    );
    const i = await a.rt.startInstance(T, { definitionKey: "cj" });
    const [tx, ty] = i.activeTasks;
    await Promise.all([a.rt.completeTask(T, tx.id, {}, actor), b.completeTask(T, ty.id, {}, actor)]);
    expect(calls).toBeGreaterThan(2);
    expect(a.rt.listTasks(T, ALL, { instanceId: i.id }).map((t) => t.activityId)).toEqual(["after"]);
    expect(a.rt.historyActivities(T, i.id).filter((x) => x.activityId === "join" && x.endTime)).toHaveLength(2);
  });
});
