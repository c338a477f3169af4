import { beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { planItemsOf, workerCase } from "../harness/agents";
import { env, fetchLock, newRunner, runnerReq, useRobotServer } from "./robots.setup";

useRobotServer();

beforeAll(async () => {
  await deployBpmn(env.s, env.admin, workerCase("crmCase", `pms:robot="crm"`), "crm.cmmn");
  await deployBpmn(
    env.s,
    env.admin,
    workerCase("mailCase", `camunda:type="external" camunda:topic="mailer"`),
    "m.cmmn",
  );
  await deployBpmn(env.s, env.admin, workerCase("flakyCase", `pms:robot="flaky"`), "flaky.cmmn");
});

type Locked = Awaited<ReturnType<typeof fetchLock>>[number] & { caseInstanceId: string | null; activityId: string };
const lockFor = async (token: string, topic: string, caseId: string) =>
  ((await fetchLock(token, topic)) as Locked[]).find((t) => t.caseInstanceId === caseId)!;
const caseOf = async (id: string) =>
  (await (await env.s.req("GET", `/api/a/instances/${id}`, { token: env.admin })).json()) as {
    variables: Record<string, unknown>;
    ended: boolean;
  };

describe("robots in cases", () => {
  test("a case task naming a robot waits as an external job; completing it with variables completes the plan item", async () => {
    const runner = await newRunner("case-runner");
    const c = await startProcess(env.s, env.admin, {
      definitionKey: "crmCase",
      businessKey: "case-crm",
      variables: { customer: "ACME" },
    });
    const [step] = await planItemsOf(env.s, env.admin, c.id);
    // the runner completes it, nobody triggers it by hand
    expect(step).toMatchObject({ elementId: "piStep", state: "ACTIVE", actions: [] });
    await expectError(
      await env.s.req("POST", `/api/a/instances/${c.id}/plan-items/${step.id}/trigger`, { token: env.admin }),
      409,
      /robot completes it/,
    );
    const task = await lockFor(runner.token, "crm", c.id);
    expect(task).toMatchObject({ processInstanceId: null, caseInstanceId: c.id, activityId: "piStep" });
    expect(task.variables).toMatchObject({ customer: { type: "String", value: "ACME" } });
    const done = await runnerReq(runner.token, `/${task.id}/complete`, { variables: { crmId: 42 } });
    expect(done.status).toBe(204);
    expect((await caseOf(c.id)).variables).toMatchObject({ customer: "ACME", crmId: 42 });
    expect((await planItemsOf(env.s, env.admin, c.id)).map((p) => [p.elementId, p.state])).toEqual([
      ["piAfter", "ACTIVE"],
    ]);
    // the job is gone: completing again is 404
    await expectError(await runnerReq(runner.token, `/${task.id}/complete`, {}), 404);
  });

  test("a Camunda Modeler external task (camunda:type=external, camunda:topic) runs unchanged in a case", async () => {
    const runner = await newRunner("case-mailer");
    const c = await startProcess(env.s, env.admin, { definitionKey: "mailCase" });
    const task = await lockFor(runner.token, "mailer", c.id);
    expect((await runnerReq(runner.token, `/${task.id}/complete`, {})).status).toBe(204);
    expect((await planItemsOf(env.s, env.admin, c.id)).map((p) => p.elementId)).toEqual(["piAfter"]);
  });

  test("a long poll is answered when a case creates work for its topic", async () => {
    const runner = await newRunner("case-poller");
    const polling = runnerReq(runner.token, "/fetchAndLock", {
      maxTasks: 1,
      asyncResponseTimeout: 10_000,
      topics: [{ topicName: "crm", lockDuration: 10_000 }],
    });
    await Bun.sleep(50);
    const c = await startProcess(env.s, env.admin, { definitionKey: "crmCase" });
    const got = (await (await polling).json()) as Locked[];
    expect(got.map((t) => t.caseInstanceId)).toEqual([c.id]);
    expect((await runnerReq(runner.token, `/${got[0].id}/complete`, {})).status).toBe(204);
  });

  test("failure → retries → dead letter in failed jobs; an operator's retry returns it to the runners", async () => {
    const { s, admin } = env;
    const runner = await newRunner("case-flaky");
    const c = await startProcess(s, admin, { definitionKey: "flakyCase" });
    const t1 = await lockFor(runner.token, "flaky", c.id);
    const r1 = await runnerReq(runner.token, `/${t1.id}/failure`, {
      errorMessage: "CRM down",
      retries: 1,
      retryTimeout: 5000,
    });
    expect(await r1.json()).toEqual({ retries: 1, state: "EXECUTABLE" });
    s.clock.advance(5001);
    const t2 = await lockFor(runner.token, "flaky", c.id);
    expect(t2.id).toBe(t1.id);
    const r2 = await runnerReq(runner.token, `/${t2.id}/failure`, { errorMessage: "still down", retries: 0 });
    expect(await r2.json()).toEqual({ retries: 0, state: "DEADLETTER" });
    const failed = (await (await s.req("GET", "/api/a/instances/failed-jobs", { token: admin })).json()) as {
      id: string;
      instanceId: string;
      definitionKey: string;
      state: string;
      exception: string;
    }[];
    expect(failed.find((j) => j.id === t1.id)).toMatchObject({
      instanceId: c.id,
      definitionKey: "flakyCase",
      state: "DEADLETTER",
      exception: "still down",
    });
    expect((await fetchLock(runner.token, "flaky")).length).toBe(0);
    const monitor = (await (await s.req("GET", "/api/a/definitions/flakyCase/monitor", { token: admin })).json()) as {
      activities: { activityId: string; byReason: Record<string, number> }[];
    };
    expect(monitor.activities.find((a) => a.activityId === "piStep")?.byReason).toMatchObject({
      JOB_FAILED: 1,
      JOB_RETRYING: 0,
      EXECUTING: 0,
    });
    // the case stays open at the step
    expect((await caseOf(c.id)).ended).toBe(false);
    expect((await s.req("POST", `/api/a/instances/failed-jobs/${t1.id}/retry`, { token: admin })).status).toBe(200);
    const t3 = await lockFor(runner.token, "flaky", c.id);
    expect((await runnerReq(runner.token, `/${t3.id}/complete`, {})).status).toBe(204);
    expect((await planItemsOf(s, admin, c.id)).map((p) => p.elementId)).toEqual(["piAfter"]);
  });

  test("a BPMN error at a case's task is refused (422) and the job stays with its runner", async () => {
    const runner = await newRunner("case-erroring");
    const c = await startProcess(env.s, env.admin, { definitionKey: "crmCase" });
    const task = await lockFor(runner.token, "crm", c.id);
    await expectError(
      await runnerReq(runner.token, `/${task.id}/bpmnError`, { errorCode: "NOT_FOUND" }),
      422,
      /cannot catch a BPMN error; report a failure instead/,
    );
    expect((await runnerReq(runner.token, `/${task.id}/complete`, {})).status).toBe(204);
  });

  test("cancelling the case removes its robot job; another tenant's runner cannot reach it", async () => {
    const runner = await newRunner("case-cancel");
    const c = await startProcess(env.s, env.admin, { definitionKey: "crmCase" });
    const task = await lockFor(runner.token, "crm", c.id);
    const theirs = (await (
      await env.s.req("POST", "/api/a/robot-runners", { token: env.otherAdmin, json: { name: "their-case" } })
    ).json()) as { token: string };
    await expectError(await runnerReq(theirs.token, `/${task.id}/complete`, {}), 404);
    expect((await env.s.req("DELETE", `/api/a/instances/${c.id}`, { token: env.admin })).status).toBeLessThan(300);
    await expectError(await runnerReq(runner.token, `/${task.id}/complete`, {}), 404);
  });

  test("an external task without a topic, or a non-blocking robot task, is refused at deploy", async () => {
    for (const attrs of [`camunda:type="external"`, `pms:robot="crm" isBlocking="false"`]) {
      const fd = new FormData();
      fd.append("file", new File([workerCase("badCase", attrs)], "bad.cmmn", { type: "application/xml" }));
      await expectError(
        await env.s.req("POST", "/api/a/definitions/deploy", { token: env.admin, body: fd }),
        400,
        /camunda:topic|isBlocking/,
      );
    }
  });
});
