import { beforeAll, describe, expect, test } from "bun:test";
import { Client, type Handler, type Task, Variables } from "camunda-external-task-client-js";
import { expectError } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { env, newRunner, openActivities, runnerReq, useRobotServer } from "./robots.setup";

// Camunda 7's own JavaScript worker, unchanged, against the Camunda-shaped API: only the base URL and the token differ.
useRobotServer();

const camunda = (key: string, topic: string, after: string, extra = "") => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <error id="err" errorCode="NOT_FOUND"/>
  <process id="${key}" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="work"/>
    <serviceTask id="work" camunda:type="external" camunda:topic="${topic}" ${extra}/>
    <boundaryEvent id="caught" attachedToRef="work"><errorEventDefinition errorRef="err"/></boundaryEvent>
    <sequenceFlow id="f1" sourceRef="work" targetRef="${after}"/>
    <sequenceFlow id="f2" sourceRef="caught" targetRef="handle"/><userTask id="handle"/>
    ${
      after === "gw"
        ? `<exclusiveGateway id="gw"/>
    <sequenceFlow id="big" sourceRef="gw" targetRef="large"><conditionExpression>\${n > 40 &amp;&amp; approved &amp;&amp; order.lines == 2 &amp;&amp; ratio &lt; 1}</conditionExpression></sequenceFlow>
    <sequenceFlow id="other" sourceRef="gw" targetRef="small"/>
    <userTask id="large"/><userTask id="small"/>`
        : `<userTask id="${after}"/>`
    }
  </process>
</definitions>`;

let token: string;
const clients: Client[] = [];

/** A started client with one subscription; the handler's tasks are also collected. */
function worker(topic: string, handler: Handler, options: Record<string, unknown> = {}) {
  const client = new Client({
    baseUrl: `${env.baseUrl}/a/robot-runners`,
    workerId: "camunda-js",
    asyncResponseTimeout: 2000,
    interval: 20,
    interceptors: (config: { headers?: Record<string, string> }) => ({
      ...config,
      headers: { ...config.headers, Authorization: `Bearer ${token}` },
    }),
    use: () => {},
  });
  clients.push(client);
  client.subscribe(topic, options, handler);
  client.start();
  return client;
}

const until = async (check: () => boolean, what: string) => {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await Bun.sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
};
const vars = (id: string) => env.s.platform.processRuntime.getVariables(env.tenant.id, id);
const job = (id: string) =>
  env.s.platform.engineSqlite.query("SELECT * FROM jobs WHERE instance_id = ?").get(id) as {
    id: string;
    retries: number;
    state: string;
    exception: string | null;
    lock_owner: string | null;
    lock_expires_at: number | null;
  } | null;

beforeAll(async () => {
  for (const key of ["calc", "camErr", "camFail", "camLock", "camPick"])
    expect((await env.s.req("POST", "/api/a/robots", { token: env.admin, json: { key, name: key } })).status).toBe(201);
  await deployBpmn(env.s, env.admin, camunda("camCalc", "calc", "gw"), "calc.bpmn");
  await deployBpmn(env.s, env.admin, camunda("camErr", "camErr", "done"), "err.bpmn");
  await deployBpmn(env.s, env.admin, camunda("camFail", "camFail", "done"), "fail.bpmn");
  await deployBpmn(env.s, env.admin, camunda("camLock", "camLock", "done"), "lock.bpmn");
  await deployBpmn(env.s, env.admin, camunda("camLow", "camPick", "done"), "low.bpmn");
  await deployBpmn(env.s, env.admin, camunda("camHigh", "camPick", "done", 'camunda:taskPriority="50"'), "high.bpmn");
  token = (await newRunner("camunda-js")).token;
  return () => {
    for (const c of clients) c.stop();
  };
});

describe("Camunda's external task client, unchanged", () => {
  test("reads typed variables with task.variables.get() and completes with typed values a gateway then reads", async () => {
    const i = await startProcess(env.s, env.admin, {
      definitionKey: "camCalc",
      variables: { customer: "ACME", count: 3, big: 2 ** 40, price: 9.5, vip: true, meta: { a: [1] }, none: null },
    });
    const seen: Record<string, unknown> = {};
    const done = { n: 0 };
    const client = worker(
      "calc",
      async ({ task, taskService }) => {
        Object.assign(seen, task.variables.getAll(), { typed: task.variables.getTyped("count") });
        const out = new Variables()
          .set("n", 42)
          .set("approved", true)
          .set("ratio", 0.5)
          .set("order", { lines: 2 })
          .set("due", new Date("2026-01-02T03:04:05.000Z"))
          .set("total", 2 ** 40)
          .setTyped("note", { type: "String", value: "ok" })
          .setTyped("gone", { type: "Null", value: null });
        await taskService.complete(task, out);
        done.n++;
      },
      { variables: ["customer", "count", "big", "price", "vip", "meta", "none"] },
    );
    await until(() => done.n === 1, "the completion");
    client.stop();
    expect(seen).toMatchObject({ customer: "ACME", count: 3, big: 2 ** 40, price: 9.5, vip: true, meta: { a: [1] } });
    expect(seen.none).toBeNull();
    expect(seen.typed).toMatchObject({ type: "integer", value: 3 });
    expect(openActivities(i.id)).toEqual(["large"]);
    expect(vars(i.id)).toMatchObject({
      n: 42,
      approved: true,
      ratio: 0.5,
      order: { lines: 2 },
      due: "2026-01-02T03:04:05.000Z",
      total: 2 ** 40,
      note: "ok",
      gone: null,
    });
  });

  test("the fetch's variables filter hands over only the names asked for; typed values Bytes and File are refused", async () => {
    const i = await startProcess(env.s, env.admin, { definitionKey: "camCalc", variables: { a: 1, b: "two" } });
    const res = await runnerReq(token, "/fetchAndLock", {
      maxTasks: 1,
      topics: [{ topicName: "calc", lockDuration: 10_000, variables: ["b"] }],
    });
    const [task] = (await res.json()) as { id: string; variables: Record<string, unknown> }[];
    expect(task.variables).toEqual({ b: { type: "String", value: "two", valueInfo: {} } });
    for (const [type, value] of [
      ["Bytes", "AAEC"],
      ["File", "x"],
      ["Integer", "forty"],
      ["Date", "yesterday"],
      ["Json", "{not json"],
      ["Object", "rO0AB"],
      ["Sparkly", 1],
    ] as const) {
      const body = await expectError(
        await runnerReq(token, `/${task.id}/complete`, {
          variables: {
            n: {
              type,
              value,
              valueInfo: type === "Object" ? { serializationDataFormat: "application/x-java-serialized-object" } : {},
            },
          },
        }),
        400,
      );
      expect(body.fieldErrors).toMatchObject([{ field: "variables.n" }]);
    }
    // Nothing was stored by the refused completions, and the task is still held.
    expect(vars(i.id).n).toBeUndefined();
    expect(job(i.id)?.lock_owner).not.toBeNull();
    expect((await runnerReq(token, `/${task.id}/complete`, { variables: { n: 1 } })).status).toBe(204);
    expect(openActivities(i.id)).toEqual(["small"]);
  });

  test("handleBpmnError with typed variables is caught by the boundary event", async () => {
    const i = await startProcess(env.s, env.admin, { definitionKey: "camErr" });
    const done = { n: 0 };
    const client = worker("camErr", async ({ task, taskService }) => {
      await taskService.handleBpmnError(
        task,
        "NOT_FOUND",
        "no such customer",
        new Variables().set("reason", { code: 404 }).set("attempts", 2),
      );
      done.n++;
    });
    await until(() => done.n === 1, "the BPMN error");
    client.stop();
    expect(openActivities(i.id)).toEqual(["handle"]);
    expect(vars(i.id)).toMatchObject({ reason: { code: 404 }, attempts: 2 });
  });

  test("handleFailure keeps errorDetails apart; retries run out into the failed-job queue a Manager sees", async () => {
    const i = await startProcess(env.s, env.admin, { definitionKey: "camFail" });
    const attempts: (number | null)[] = [];
    const client = worker("camFail", async ({ task, taskService }) => {
      attempts.push(task.retries);
      const left = (task.retries ?? 3) - 1;
      await taskService.handleFailure(task, {
        errorMessage: "CRM down",
        errorDetails: `stack trace #${attempts.length}`,
        retries: left,
        retryTimeout: 0,
      });
    });
    await until(() => job(i.id)?.state === "DEADLETTER", "the dead-letter");
    client.stop();
    // A robot job starts with 3 tries (Camunda: null until the first failure); at 0 left, the failed-job queue.
    expect(attempts).toEqual([3, 2, 1]);
    const j = job(i.id)!;
    expect(j.exception).toBe("CRM down");
    const details = await env.s.req("GET", `/api/a/robot-runners/external-task/${j.id}/errorDetails`, { token });
    expect(details.status).toBe(200);
    expect(await details.text()).toBe("stack trace #3");
    const failed = (await (await env.s.req("GET", "/api/a/instances/failed-jobs", { token: env.admin })).json()) as {
      id: string;
      exception: string;
      errorDetails: string;
    }[];
    expect(failed.find((f) => f.id === j.id)).toMatchObject({ exception: "CRM down", errorDetails: "stack trace #3" });
    await expectError(await env.s.req("GET", "/api/a/robot-runners/external-task/nope/errorDetails", { token }), 404);
    await expectError(
      await env.s.req("GET", `/api/a/robot-runners/external-task/${j.id}/errorDetails`, { token: env.otherAdmin }),
      403,
    );
  });

  test("extendLock moves the lock on; unlock gives the task back for the next fetch", async () => {
    const i = await startProcess(env.s, env.admin, { definitionKey: "camLock" });
    const before: number[] = [];
    const seen: Task[] = [];
    const client = worker(
      "camLock",
      async ({ task, taskService }) => {
        seen.push(task);
        if (seen.length === 1) {
          before.push(job(i.id)!.lock_expires_at!);
          await taskService.extendLock(task, 600_000);
          before.push(job(i.id)!.lock_expires_at!);
          await taskService.unlock(task);
          return;
        }
        await taskService.complete(task);
      },
      { lockDuration: 1000 },
    );
    await until(() => seen.length === 2 && openActivities(i.id)[0] === "done", "the second fetch");
    client.stop();
    expect(before[1] - before[0]).toBeGreaterThanOrEqual(599_000 - 1000);
    expect(seen[1].id).toBe(seen[0].id);
    // Another runner's unlock of a task it does not hold is a 409; a gone task a 404.
    const other = await newRunner("other");
    const j2 = await startProcess(env.s, env.admin, { definitionKey: "camLock" });
    const [t] = (await (
      await runnerReq(token, "/fetchAndLock", { maxTasks: 1, topics: [{ topicName: "camLock", lockDuration: 60_000 }] })
    ).json()) as { id: string }[];
    await expectError(await runnerReq(other.token, `/${t.id}/unlock`, {}), 409);
    await expectError(await runnerReq(token, "/gone/unlock", {}), 404);
    expect(job(j2.id)?.lock_owner).not.toBeNull();
  });

  test("usePriority takes the higher camunda:taskPriority first; without it the oldest", async () => {
    const low = await startProcess(env.s, env.admin, { definitionKey: "camLow" });
    env.s.clock.advance(1);
    const high = await startProcess(env.s, env.admin, { definitionKey: "camHigh" });
    const take = async (usePriority: boolean) => {
      const res = await runnerReq(token, "/fetchAndLock", {
        maxTasks: 1,
        usePriority,
        topics: [{ topicName: "camPick", lockDuration: 1 }],
      });
      return ((await res.json()) as { processInstanceId: string; priority: number }[])[0];
    };
    expect(await take(true)).toMatchObject({ processInstanceId: high.id, priority: 50 });
    env.s.clock.advance(10);
    expect(await take(false)).toMatchObject({ processInstanceId: low.id, priority: 0 });
  });
});
