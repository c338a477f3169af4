import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saTenantToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";

// A user task with a one-hour timer on it, and an async script step that fails while `fail` is true.
const waiting = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  targetNamespace="t">
  <process id="jobTimer" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="work"/>
    <userTask id="work" name="Work"/>
    <boundaryEvent id="late" attachedToRef="work"><timerEventDefinition><timeDuration>PT1H</timeDuration></timerEventDefinition></boundaryEvent>
    <sequenceFlow id="f1" sourceRef="work" targetRef="e"/><endEvent id="e"/>
    <sequenceFlow id="f2" sourceRef="late" targetRef="escalated"/><userTask id="escalated" name="Escalated"/>
  </process>
  <process id="jobFlaky" isExecutable="true">
    <startEvent id="s2"/><sequenceFlow id="g0" sourceRef="s2" targetRef="call"/>
    <scriptTask id="call" scriptFormat="javascript" camunda:asyncBefore="true">
      <extensionElements><camunda:failedJobRetryTimeCycle>R2/PT1H</camunda:failedJobRetryTimeCycle></extensionElements>
      <script>if (execution.getVariable('fail')) throw new Error('remote down'); execution.setVariable('called', true);</script>
    </scriptTask>
    <sequenceFlow id="g1" sourceRef="call" targetRef="after"/><userTask id="after" name="After"/>
  </process>
  <process id="jobDaily" isExecutable="true">
    <startEvent id="s3"><timerEventDefinition><timeCycle>R/P1D</timeCycle></timerEventDefinition></startEvent>
    <sequenceFlow id="h0" sourceRef="s3" targetRef="daily"/><userTask id="daily" name="Daily"/>
  </process>
</definitions>`;

// A case whose task A waits for a one-hour timer event listener.
const timedCase = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" targetNamespace="t">
  <case id="jobCase"><casePlanModel id="jobCasePlan">
    <planItem id="piTimer" definitionRef="timer"/>
    <planItem id="piA" name="A" definitionRef="a"><entryCriterion sentryRef="afterTimer"/></planItem>
    <sentry id="afterTimer"><planItemOnPart sourceRef="piTimer"><standardEvent>occur</standardEvent></planItemOnPart></sentry>
    <timerEventListener id="timer"><timerExpression>PT1H</timerExpression></timerEventListener>
    <humanTask id="a" name="A"/>
  </casePlanModel></case>
</definitions>`;

interface Job {
  id: string;
  instanceId: string | null;
  activityId: string;
  type: string;
  state: string;
  dueAt: string;
  retries: number;
  exception: string | null;
}

let s: TestServer;
let admin: string;
let manager: string;
let user: string;
let modeler: string;
let otherManager: string;
let tenantId: string;

beforeAll(async () => {
  s = await startTestServer();
  const tenant = await createTenant(s, "jobs-a");
  const other = await createTenant(s, "jobs-b");
  tenantId = tenant.id;
  admin = await saTenantToken(s, tenant);
  manager = (await userInTenant(s, tenant, "MANAGER")).token;
  user = (await userInTenant(s, tenant, "USER")).token;
  modeler = (await userInTenant(s, tenant, "MODELER")).token;
  otherManager = (await userInTenant(s, other, "MANAGER")).token;
  await deployBpmn(s, admin, waiting, "jobs.bpmn");
  await deployBpmn(s, admin, timedCase, "jobs.cmmn");
});
afterAll(() => s.close());

const jobsOf = async (id: string, token = manager) => {
  const res = await s.req("GET", `/api/a/instances/${id}/jobs`, { token });
  expect(res.status).toBe(200);
  return (await res.json()) as Job[];
};
const execute = (jobId: string, token = manager) => s.req("POST", `/api/a/jobs/${jobId}/execute`, { token });
const activities = async (id: string) =>
  (await (await s.req("GET", `/api/a/history/instances/${id}/activities`, { token: manager })).json()) as {
    activityId: string;
    activityType: string;
    who: string | null;
    channel: string | null;
    outcome: string | null;
  }[];
const openTasks = (instanceId: string) =>
  s.platform.processRuntime
    .listTasks(tenantId, { all: true, userId: null, groups: [] }, { instanceId })
    .map((t) => t.activityId);

describe("job routes", () => {
  test("a Manager lists an instance's timer and fires it now: the boundary path is taken and history records who", async () => {
    const i = await startProcess(s, user, { definitionKey: "jobTimer" });
    const [timer, ...rest] = await jobsOf(i.id);
    expect(rest).toHaveLength(0);
    expect(timer).toMatchObject({
      instanceId: i.id,
      activityId: "late",
      type: "timer",
      state: "EXECUTABLE",
      retries: 3,
    });
    expect(Date.parse(timer.dueAt) - s.clock.now()).toBe(3_600_000);
    const res = await execute(timer.id);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: timer.id, outcome: "executed", error: null, job: null });
    expect(await jobsOf(i.id)).toEqual([]);
    expect(openTasks(i.id)).toEqual(["escalated"]);
    const audit = (await activities(i.id)).filter((a) => a.activityType === "jobExecution");
    expect(audit).toMatchObject([{ activityId: "late", channel: "REST", outcome: "executed" }]);
    expect(audit[0].who).toBeString();
    // Once run, the job is gone: a second execute is 404.
    await expectError(await execute(timer.id), 404);
  });

  test("a failed job is tried once by hand: a failure costs one retry and is audited, a success moves the instance on", async () => {
    const i = await startProcess(s, user, { definitionKey: "jobFlaky", variables: { fail: true } });
    expect(await s.platform.processRuntime.runDueJobs()).toBe(0);
    const [failed] = await jobsOf(i.id);
    expect(failed).toMatchObject({ type: "async", activityId: "call", retries: 1, state: "EXECUTABLE" });
    expect(failed.exception).toContain("remote down");
    // Not due for an hour (the retry cycle); run by hand now, it fails again: the last retry goes, dead-letter.
    const again = await execute(failed.id);
    expect(again.status).toBe(200);
    const body = (await again.json()) as { outcome: string; error: string; job: Job };
    expect(body.outcome).toBe("failed");
    expect(body.error).toContain("remote down");
    expect(body.job).toMatchObject({ id: failed.id, state: "DEADLETTER", retries: 0 });
    expect((await activities(i.id)).filter((a) => a.activityType === "jobExecution")).toMatchObject([
      { activityId: "call", outcome: "failed" },
    ]);
    // A dead-lettered job is tried once more by hand; with the cause fixed it runs and the instance moves on.
    const fix = await s.req("PUT", `/api/a/instances/${i.id}/variables`, {
      token: manager,
      json: { variables: { fail: false } },
    });
    expect(fix.status).toBe(200);
    const ok = await execute(failed.id);
    expect(((await ok.json()) as { outcome: string }).outcome).toBe("executed");
    expect(await jobsOf(i.id)).toEqual([]);
    expect(openTasks(i.id)).toEqual(["after"]);
    expect((await activities(i.id)).filter((a) => a.activityType === "jobExecution").map((a) => a.outcome)).toEqual([
      "failed",
      "executed",
    ]);
  });

  test("a definition's timer-start jobs are listed, and running one starts an instance recorded as run by hand", async () => {
    const res = await s.req("GET", "/api/a/definitions/jobDaily/jobs", { token: manager });
    expect(res.status).toBe(200);
    const [start, ...more] = (await res.json()) as Job[];
    expect(more).toHaveLength(0);
    expect(start).toMatchObject({ instanceId: null, activityId: "s3", type: "timer" });
    const ran = await execute(start.id);
    expect(ran.status).toBe(200);
    expect(((await ran.json()) as { outcome: string }).outcome).toBe("executed");
    // The cycle goes on: the next occurrence is a new job, a day later.
    const [next] = (await (await s.req("GET", "/api/a/definitions/jobDaily/jobs", { token: manager })).json()) as Job[];
    expect(next.id).not.toBe(start.id);
    expect(Date.parse(next.dueAt) - s.clock.now()).toBe(86_400_000);
    const list = (await (await s.req("GET", "/api/a/instances", { token: manager })).json()) as {
      content: { id: string; definitionKey: string }[];
    };
    const daily = list.content.filter((x) => x.definitionKey === "jobDaily");
    expect(daily).toHaveLength(1);
    expect((await activities(daily[0].id)).find((a) => a.activityType === "jobExecution")).toMatchObject({
      activityId: "s3",
      outcome: "executed",
      channel: "REST",
    });
  });

  test("the job routes are the Manager's: users, modelers and other tenants are refused, unknown ids are 404", async () => {
    const i = await startProcess(s, user, { definitionKey: "jobTimer" });
    const [timer] = await jobsOf(i.id);
    for (const token of [user, modeler]) {
      await expectError(await s.req("GET", `/api/a/instances/${i.id}/jobs`, { token }), 403);
      await expectError(await s.req("GET", "/api/a/definitions/jobDaily/jobs", { token }), 403);
      await expectError(await execute(timer.id, token), 403);
    }
    await expectError(await s.req("GET", `/api/a/instances/${i.id}/jobs`, { token: otherManager }), 404);
    await expectError(await s.req("GET", "/api/a/definitions/jobDaily/jobs", { token: otherManager }), 404);
    await expectError(await execute(timer.id, otherManager), 404);
    await expectError(await execute("no-such-job"), 404);
    await expectError(await s.req("GET", "/api/a/instances/no-such/jobs", { token: manager }), 404);
    await expectError(await s.req("GET", "/api/a/definitions/noSuchKey/jobs", { token: manager }), 404);
    // The timer is still there, untouched by the refused calls.
    expect((await jobsOf(i.id)).map((j) => j.id)).toEqual([timer.id]);
  });

  test("a case's timer listener is listed and fired now: the task behind it starts, the case's history records the run", async () => {
    const c = await startProcess(s, user, { definitionKey: "jobCase" });
    const [timer] = await jobsOf(c.id);
    expect(timer).toMatchObject({ instanceId: c.id, activityId: "piTimer", type: "case-timer" });
    const res = await execute(timer.id);
    expect(((await res.json()) as { outcome: string }).outcome).toBe("executed");
    expect(await jobsOf(c.id)).toEqual([]);
    expect(openTasks(c.id)).toEqual(["piA"]);
    expect((await activities(c.id)).find((a) => a.activityType === "jobExecution")).toMatchObject({
      activityId: "piTimer",
      outcome: "executed",
      channel: "REST",
    });
  });

  test("a job of a suspended instance waits: execute answers 409 and leaves it as it was", async () => {
    const i = await startProcess(s, user, { definitionKey: "jobTimer" });
    const [timer] = await jobsOf(i.id);
    expect((await s.req("PATCH", `/api/a/instances/${i.id}/suspend`, { token: manager })).status).toBe(200);
    await expectError(await execute(timer.id), 409, /SUSPENDED/);
    expect(await jobsOf(i.id)).toMatchObject([{ id: timer.id, retries: 3, exception: null }]);
  });
});
