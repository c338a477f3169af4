import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { CaseRuntime } from "../../app/runtime/cmmn";
import { cmmn } from "../fixtures/cmmn/harness";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { startTestServer, type TestServer } from "../harness/server";

let s: TestServer;
let rt: CaseRuntime;
let tenant: { id: string; slug: string };
let other: { id: string; slug: string };
let manager: { id: string; token: string };
let user: { id: string; token: string };
let outsider: { id: string; token: string };
let otherAdmin: { id: string; token: string };

const MODEL = cmmn(
  "claim",
  `
  <planItem id="piStage" name="Review" definitionRef="st"/>
  <planItem id="piMs" name="Reviewed" definitionRef="ms"><entryCriterion id="e1" sentryRef="s1"/></planItem>
  <sentry id="s1"><planItemOnPart id="op1" sourceRef="piStage"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
  <milestone id="ms" name="Reviewed"/>
  <stage id="st" name="Review">
    <planItem id="piCheck" name="Check" definitionRef="check"/>
    <planItem id="piExtra" name="Extra check" definitionRef="extra"><itemControl><manualActivationRule/></itemControl></planItem>
    <planItem id="piEsc" name="Escalate" definitionRef="esc"/>
    <humanTask id="check" name="Check" flowable:assignee="\${initiator}"/>
    <humanTask id="extra" name="Extra check"/>
    <userEventListener id="esc" name="Escalate"/>
  </stage>`,
).replace(`<case id="claim" name="claim"`, `<case id="claim" name="claim" flowable:initiatorVariableName="initiator"`);

beforeAll(async () => {
  s = await startTestServer();
  rt = s.platform.caseRuntime;
  const sa = await saToken(s);
  tenant = await createTenant(s, "cases-a", sa);
  other = await createTenant(s, "cases-b", sa);
  manager = await userInTenant(s, tenant, "MANAGER", sa);
  user = await userInTenant(s, tenant, "USER", sa);
  outsider = await userInTenant(s, tenant, "USER", sa);
  otherAdmin = await userInTenant(s, other, "ADMIN", sa);
  await rt.deploy(tenant.id, MODEL, { fileName: "claim.cmmn", createdBy: manager.id });
});
afterAll(() => s.close());

const start = () => rt.startCase(tenant.id, { definitionKey: "claim", startedBy: user.id, channel: "REST" });
const planItems = async (id: string, token: string) =>
  (await (await s.req("GET", `/api/a/instances/${id}/plan-items`, { token })).json()) as Array<{
    id: string;
    name: string;
    state: string;
    actions: string[];
    stageId?: string;
  }>;

describe("case plan items over HTTP", () => {
  test("the case's participant sees live plan items with actions; COMPLETE_STAGE only for a Manager", async () => {
    const c = await start();
    const mine = await planItems(c.id, user.token);
    expect(mine.map((p) => [p.name, p.state, p.actions])).toEqual([
      ["Review", "ACTIVE", []],
      ["Reviewed", "AVAILABLE", []],
      ["Check", "ACTIVE", []],
      ["Extra check", "ENABLED", ["START", "DISABLE"]],
      ["Escalate", "AVAILABLE", ["TRIGGER"]],
    ]);
    expect(mine.find((p) => p.name === "Check")!.stageId).toBe(mine[0].id);
    // Complete-stage is a Manager's forced close: offered on the active stage although 'Check' is active inside it.
    const managerView = await planItems(c.id, manager.token);
    expect(managerView[0].actions).toEqual(["COMPLETE_STAGE"]);
  });

  test("start, disable, enable and trigger move plan items; a wrong state answers 409 naming it", async () => {
    const c = await start();
    const extra = (await planItems(c.id, user.token)).find((p) => p.name === "Extra check")!;
    const dis = await s.req("POST", `/api/a/instances/${c.id}/plan-items/${extra.id}/disable`, { token: user.token });
    expect(dis.status).toBe(200);
    expect((await dis.json()).state).toBe("DISABLED");
    await expectError(
      await s.req("POST", `/api/a/instances/${c.id}/plan-items/${extra.id}/start`, { token: user.token }),
      409,
      "disabled",
    );
    expect(
      (
        await (
          await s.req("POST", `/api/a/instances/${c.id}/plan-items/${extra.id}/enable`, { token: user.token })
        ).json()
      ).actions,
    ).toEqual(["START", "DISABLE"]);
    expect(
      (
        await (
          await s.req("POST", `/api/a/instances/${c.id}/plan-items/${extra.id}/start`, { token: user.token })
        ).json()
      ).state,
    ).toBe("ACTIVE");
    const esc = (await planItems(c.id, user.token)).find((p) => p.name === "Escalate")!;
    expect(
      (
        await (
          await s.req("POST", `/api/a/instances/${c.id}/plan-items/${esc.id}/trigger`, { token: user.token })
        ).json()
      ).state,
    ).toBe("COMPLETED");
    await expectError(
      await s.req("POST", `/api/a/instances/${c.id}/plan-items/${esc.id}/trigger`, { token: user.token }),
      409,
      "completed",
    );
  });

  test("complete-stage: a USER gets 403; a Manager closes the stage, ending its optional steps, and the milestone is reached", async () => {
    const c = await start();
    const items = await planItems(c.id, manager.token);
    const stage = items[0];
    await expectError(
      await s.req("POST", `/api/a/instances/${c.id}/plan-items/${stage.id}/complete-stage`, { token: user.token }),
      403,
    );
    const task = s.platform.engineSqlite
      .query("SELECT id FROM tasks WHERE instance_id = ? AND state = 'OPEN'")
      .get(c.id) as { id: string };
    await rt.completeHumanTask(tenant.id, task.id, {}, { userId: user.id, channel: "REST" });
    // Only optional steps remain: the Manager is still offered COMPLETE_STAGE, the USER never is.
    expect((await planItems(c.id, manager.token))[0].actions).toEqual(["COMPLETE_STAGE"]);
    expect((await planItems(c.id, user.token))[0].actions).toEqual([]);
    const done = await s.req("POST", `/api/a/instances/${c.id}/plan-items/${stage.id}/complete-stage`, {
      token: manager.token,
    });
    expect(done.status).toBe(200);
    expect((await done.json()).state).toBe("COMPLETED");
    const ms = await s.req("GET", `/api/a/instances/${c.id}/milestones`, { token: user.token });
    expect((await ms.json()).map((m: { name: string }) => m.name)).toEqual(["Reviewed"]);
    expect(rt.getCase(tenant.id, c.id).ended).toBe(true);
  });

  test("a Manager completes a stage while a human task inside is active: the task is terminated, the stage completes, the case moves on", async () => {
    const c = await start();
    const stage = (await planItems(c.id, manager.token))[0];
    const task = s.platform.engineSqlite
      .query("SELECT id FROM tasks WHERE instance_id = ? AND state = 'OPEN'")
      .get(c.id) as { id: string };
    const done = await s.req("POST", `/api/a/instances/${c.id}/plan-items/${stage.id}/complete-stage`, {
      token: manager.token,
    });
    expect(done.status).toBe(200);
    expect((await done.json()).state).toBe("COMPLETED");
    const all = rt.planItems(tenant.id, c.id, { isManager: true, includeEnded: true });
    expect(Object.fromEntries(all.map((p) => [p.name, p.state]))).toMatchObject({
      Review: "COMPLETED",
      Check: "TERMINATED",
      "Extra check": "TERMINATED",
      Escalate: "TERMINATED",
      Reviewed: "COMPLETED",
    });
    const row = s.platform.engineSqlite.query("SELECT state FROM tasks WHERE id = ?").get(task.id) as { state: string };
    expect(row.state).not.toBe("OPEN");
    await expectError(await s.req("POST", `/api/a/tasks/${task.id}/complete`, { token: user.token, json: {} }), 409);
    expect(rt.getCase(tenant.id, c.id).ended).toBe(true);
  });

  test("a USER is never offered COMPLETE_STAGE and is refused with 403, also while the stage has work inside", async () => {
    const c = await start();
    const stage = (await planItems(c.id, user.token))[0];
    expect(stage.actions).toEqual([]);
    await expectError(
      await s.req("POST", `/api/a/instances/${c.id}/plan-items/${stage.id}/complete-stage`, { token: user.token }),
      403,
    );
    expect((await planItems(c.id, user.token))[0].state).toBe("ACTIVE");
  });

  test("a case the person takes no part in, or of another tenant, answers 404", async () => {
    const c = await start();
    const first = (await planItems(c.id, user.token))[0];
    await expectError(await s.req("GET", `/api/a/instances/${c.id}/plan-items`, { token: outsider.token }), 404);
    await expectError(await s.req("GET", `/api/a/instances/${c.id}/milestones`, { token: outsider.token }), 404);
    await expectError(
      await s.req("POST", `/api/a/instances/${c.id}/plan-items/${first.id}/trigger`, { token: outsider.token }),
      404,
    );
    await expectError(await s.req("GET", `/api/a/instances/${c.id}/plan-items`, { token: otherAdmin.token }), 404);
    await expectError(
      await s.req("POST", `/api/a/instances/${c.id}/plan-items/${first.id}/complete-stage`, {
        token: otherAdmin.token,
      }),
      404,
    );
    await expectError(await s.req("GET", `/api/a/instances/nope/plan-items`, { token: manager.token }), 404);
  });
});
