import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";

const CASE = readFileSync(join(import.meta.dir, "../fixtures/cmmn/review-case.cmmn"), "utf8");
type U = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let modeler: U, manager: U, reviewer: U, outsider: U;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "cases", sa);
  [modeler, manager, reviewer, outsider] = await Promise.all(
    (["MODELER", "MANAGER", "USER", "USER"] as const).map((r) => userInTenant(s, t, r, sa)),
  );
  const role = await (
    await s.req("POST", "/api/a/process-roles", { token: modeler.token, json: { key: "reviewers", name: "Reviewers" } })
  ).json();
  await s.req("POST", `/api/a/process-roles/${role.id}/members`, {
    token: modeler.token,
    json: { userId: reviewer.id },
  });
});
afterAll(() => s.close());

describe("cases through the process routes", () => {
  test("a .cmmn file deploys through /a/definitions/deploy as type CMMN with the plan model's form key", async () => {
    const res = await deployBpmn(s, modeler.token, CASE, "review.cmmn");
    expect(res.definitions).toEqual([
      { key: "reviewCase", definitionId: expect.any(String), version: 1, name: "Review case", type: "CMMN" },
    ]);
    const d = await (await s.req("GET", "/api/a/definitions/reviewCase", { token: reviewer.token })).json();
    expect(d).toMatchObject({ type: "CMMN", startFormKey: "case-start" });
    await expectError(await s.req("PUT", "/api/a/definitions/reviewCase/suspend", { token: modeler.token }), 400);
  });

  test("a case starts with POST /a/instances, is driven through the task routes, and ends", async () => {
    const started = await startProcess(s, reviewer.token, { definitionKey: "reviewCase", businessKey: "CASE-1" });
    expect(started).toMatchObject({ type: "CMMN", businessKey: "CASE-1", ended: false });
    expect(started.activeTasks.map((t) => t.name)).toEqual(["Review document"]);
    const id = started.id;
    const items = await (await s.req("GET", `/api/a/instances/${id}/plan-items`, { token: reviewer.token })).json();
    expect(items.map((i: { elementId: string; state: string }) => [i.elementId, i.state])).toEqual(
      expect.arrayContaining([
        ["piReview", "ACTIVE"],
        ["piSign", "AVAILABLE"],
        ["piDone", "AVAILABLE"],
      ]),
    );
    const task = started.activeTasks[0].id;
    await s.req("POST", `/api/a/tasks/${task}/claim`, { token: reviewer.token });
    expect(
      (
        await s.req("POST", `/api/a/tasks/${task}/complete`, {
          token: reviewer.token,
          json: { variables: { verdict: "ok" } },
        })
      ).status,
    ).toBe(200);
    const detail = await (await s.req("GET", `/api/a/instances/${id}`, { token: manager.token })).json();
    expect(detail).toMatchObject({ type: "CMMN", variables: { verdict: "ok" } });
    const sign = (await (await s.req("GET", `/api/a/tasks?instanceId=${id}`, { token: manager.token })).json())[0];
    expect(sign.name).toBe("Sign off");
    expect((await s.req("POST", `/api/a/tasks/${sign.id}/complete`, { token: manager.token, json: {} })).status).toBe(
      200,
    );
    const milestones = await (await s.req("GET", `/api/a/instances/${id}/milestones`, { token: manager.token })).json();
    expect(milestones.map((m: { elementId: string }) => m.elementId)).toEqual(["piDone"]);
    const hist = await (await s.req("GET", `/api/a/history/instances/${id}`, { token: reviewer.token })).json();
    expect(hist).toMatchObject({ type: "CMMN", ended: true });
    const cmmnHistory = await (
      await s.req("GET", "/api/a/history/instances?type=CMMN", { token: manager.token })
    ).json();
    expect(cmmnHistory.content.map((c: { id: string }) => c.id)).toContain(id);
  });

  test("a case task offered to a process role is in its members' inbox until it is completed", async () => {
    const kase = await startProcess(s, manager.token, { definitionKey: "reviewCase" });
    const task = kase.activeTasks.find((t) => t.name === "Review document")!.id;
    const inbox = async () =>
      ((await (await s.req("GET", "/api/a/tasks?size=200", { token: reviewer.token })).json()) as { id: string }[]).map(
        (t) => t.id,
      );
    expect(await inbox()).toContain(task);
    expect(
      ((await (await s.req("GET", "/api/a/tasks?size=200", { token: outsider.token })).json()) as { id: string }[]).map(
        (t) => t.id,
      ),
    ).not.toContain(task);
    await s.req("POST", `/api/a/tasks/${task}/claim`, { token: reviewer.token });
    expect((await s.req("POST", `/api/a/tasks/${task}/complete`, { token: reviewer.token, json: {} })).status).toBe(
      200,
    );
    expect(await inbox()).not.toContain(task);
    await s.req("DELETE", `/api/a/instances/${kase.id}`, { token: manager.token });
  });

  test("lists filter by type, and without type hold processes and cases together", async () => {
    await deployBpmn(
      s,
      modeler.token,
      `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="x"><process id="p1" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/><userTask id="t"/></process></definitions>`,
    );
    const proc = await startProcess(s, manager.token, { definitionKey: "p1" });
    const kase = await startProcess(s, manager.token, { definitionKey: "reviewCase" });
    const ids = async (q: string) =>
      (await (await s.req("GET", `/api/a/instances${q}`, { token: manager.token })).json()).content.map(
        (i: { id: string }) => i.id,
      );
    expect(await ids("?type=CMMN")).toContain(kase.id);
    expect(await ids("?type=CMMN")).not.toContain(proc.id);
    expect(await ids("?type=BPMN")).toContain(proc.id);
    expect(await ids("?type=BPMN")).not.toContain(kase.id);
    const both = await ids("");
    expect(both).toContain(proc.id);
    expect(both).toContain(kase.id);
  });

  test("suspending a case answers 400; a Manager cancels it; an outsider gets 404", async () => {
    const kase = await startProcess(s, reviewer.token, { definitionKey: "reviewCase" });
    await expectError(await s.req("GET", `/api/a/instances/${kase.id}`, { token: outsider.token }), 404);
    await expectError(await s.req("GET", `/api/a/instances/${kase.id}/plan-items`, { token: outsider.token }), 404);
    await expectError(await s.req("PATCH", `/api/a/instances/${kase.id}/suspend`, { token: manager.token }), 400);
    await expectError(await s.req("PATCH", `/api/a/instances/${kase.id}/activate`, { token: manager.token }), 400);
    const cancelled = await s.req("DELETE", `/api/a/instances/${kase.id}`, { token: manager.token });
    expect((await cancelled.json()).ended).toBe(true);
    const diagram = await s.req("GET", `/api/a/instances/${kase.id}/diagram`, { token: manager.token });
    expect(await diagram.text()).toContain("casePlanModel");
  });
});

describe("monitor and dashboard include cases", () => {
  test("the monitor of a case counts human tasks waiting per plan item; the dashboard counts running cases", async () => {
    const before = (await (await s.req("GET", "/api/a/dashboard", { token: reviewer.token })).json()).runningInstances;
    const kase = await startProcess(s, reviewer.token, { definitionKey: "reviewCase", businessKey: "MON-1" });
    const after = (await (await s.req("GET", "/api/a/dashboard", { token: reviewer.token })).json()).runningInstances;
    expect(after).toBe(before + 1);
    const mon = await (await s.req("GET", "/api/a/definitions/reviewCase/monitor", { token: manager.token })).json();
    expect(mon).toMatchObject({ definitionKey: "reviewCase", version: 1 });
    expect(mon.bpmnXml).toContain("casePlanModel");
    const review = mon.activities.find((a: { activityId: string }) => a.activityId === "piReview");
    expect(review.byReason).toEqual({
      USER_TASK: review.count,
      JOB_FAILED: 0,
      JOB_RETRYING: 0,
      TIMER: 0,
      EXECUTING: 0,
    });
    expect(review.count).toBe(mon.runningInstances);
    const items = await (
      await s.req("GET", "/api/a/definitions/reviewCase/monitor/piReview", { token: manager.token })
    ).json();
    expect(items.find((i: { instanceId: string }) => i.instanceId === kase.id)).toMatchObject({
      reason: "USER_TASK",
      businessKey: "MON-1",
      taskId: expect.any(String),
    });
    await expectError(await s.req("GET", "/api/a/definitions/reviewCase/monitor", { token: reviewer.token }), 403);
  });
});
