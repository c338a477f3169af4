import { afterAll, beforeAll, expect } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saTenantToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";

/** What the robot tests share: a server with two tenants, four robots and their models, served over HTTP too. */
export const env = {} as {
  s: TestServer;
  admin: string;
  otherAdmin: string;
  tenant: { id: string; slug: string };
  http: ReturnType<typeof Bun.serve>;
  baseUrl: string;
};

const ALL = { all: true, userId: null, groups: [] as string[] };

/** A process whose service task is a robot's, named in our namespace or as a Camunda external task. */
export const model = (key: string, robotAttr: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:pms="urn:pms:bpmn"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="t">
  <error id="err" errorCode="NOT_FOUND"/>
  <process id="${key}" isExecutable="true">
    <startEvent id="start"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="robot"/>
    <serviceTask id="robot" name="Robot step" ${robotAttr}/>
    <boundaryEvent id="caught" attachedToRef="robot"><errorEventDefinition errorRef="err"/></boundaryEvent>
    <sequenceFlow id="f2" sourceRef="robot" targetRef="after"/>
    <sequenceFlow id="f3" sourceRef="caught" targetRef="handle"/>
    <userTask id="after" name="After"/>
    <userTask id="handle" name="Handle error"/>
    <sequenceFlow id="f4" sourceRef="after" targetRef="end"/>
    <sequenceFlow id="f5" sourceRef="handle" targetRef="end"/>
    <endEvent id="end"/>
  </process>
</definitions>`;

export const runnerReq = (token: string, path: string, json: unknown) =>
  env.s.req("POST", `/api/a/robot-runners/external-task${path}`, { token, json });
export const fetchLock = async (
  token: string,
  topic: string,
  opts: { wait?: number; lock?: number; max?: number } = {},
) => {
  const res = await runnerReq(token, "/fetchAndLock", {
    maxTasks: opts.max ?? 10,
    asyncResponseTimeout: opts.wait ?? 0,
    topics: [{ topicName: topic, lockDuration: opts.lock ?? 10_000 }],
  });
  expect(res.status).toBe(200);
  return (await res.json()) as {
    id: string;
    processInstanceId: string;
    retries: number;
    parameters: Record<string, unknown>;
    variables: Record<string, unknown>;
  }[];
};
export const newRunner = async (name = "runner") => {
  const res = await env.s.req("POST", "/api/a/robot-runners", { token: env.admin, json: { name } });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; token: string };
};
export const openActivities = (instanceId: string) =>
  env.s.platform.processRuntime
    .listTasks(env.tenant.id, ALL, { instanceId })
    .map((t) => t.activityId)
    .sort();

/** Registers the suite's setup and teardown. */
export function useRobotServer() {
  beforeAll(async () => {
    const s = (env.s = await startTestServer());
    const tenant = (env.tenant = await createTenant(s, "robots-a"));
    const b = await createTenant(s, "robots-b");
    const admin = (env.admin = await saTenantToken(s, tenant));
    env.otherAdmin = (await userInTenant(s, b, "ADMIN")).token;
    const http = (env.http = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req, srv) => s.app.fetch(req, { server: srv }),
    }));
    env.baseUrl = `http://127.0.0.1:${http.port}/api`;
    for (const key of ["crm", "mailer", "busy", "flaky"])
      expect((await s.req("POST", "/api/a/robots", { token: admin, json: { key, name: `Robot ${key}` } })).status).toBe(
        201,
      );
    await deployBpmn(s, admin, model("robotFlow", 'pms:robot="crm"'), "robot.bpmn");
    await deployBpmn(s, admin, model("camundaFlow", 'camunda:type="external" camunda:topic="mailer"'), "camunda.bpmn");
    await deployBpmn(s, admin, model("busyFlow", 'pms:robot="busy"'), "busy.bpmn");
    await deployBpmn(s, admin, model("flakyFlow", 'pms:robot="flaky"'), "flaky.bpmn");
  });
  afterAll(async () => {
    env.http?.stop(true);
    await env.s.close();
  });
}
