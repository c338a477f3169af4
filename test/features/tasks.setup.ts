import { afterAll, beforeAll, expect } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";

export type U = Awaited<ReturnType<typeof userInTenant>>;
export let s: TestServer;
export let admin: U, manager: U, modeler: U, approver: U, approver2: U, starter: U, outsider: U, otherAdmin: U;
export const REVIEW_FORM = {
  key: "review-form",
  name: "Review",
  schema: {
    fields: [
      { key: "decision", type: "select", required: true, options: ["approve", "reject"] },
      { key: "reason", type: "textarea", required: true, visibleIf: 'decision = "reject"' },
    ],
  },
};
export async function newTask(extra: Record<string, unknown> = {}) {
  const inst = await startProcess(s, starter.token, { definitionKey: "approval", ...extra });
  const tasks = await (await s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: manager.token })).json();
  expect(tasks).toHaveLength(1);
  return { instanceId: inst.id, taskId: tasks[0].id as string, task: tasks[0] };
}

/** Registers the suite's setup: a test server, the tenant and users its scenarios share. */
export function useTaskScenario(): void {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "tasks-a", sa);
    const other = await createTenant(s, "tasks-b", sa);
    [admin, manager, modeler, approver, approver2, starter, outsider] = await Promise.all(
      (["ADMIN", "MANAGER", "MODELER", "USER", "USER", "USER", "USER"] as const).map((r) => userInTenant(s, t, r, sa)),
    );
    otherAdmin = await userInTenant(s, other, "ADMIN", sa);
    const role = await (
      await s.req("POST", "/api/a/process-roles", {
        token: modeler.token,
        json: { processKey: "approval", key: "approvers", name: "Approvers" },
      })
    ).json();
    for (const u of [approver, approver2])
      await s.req("POST", `/api/a/process-roles/${role.id}/members`, { token: modeler.token, json: { userId: u.id } });
    await deployBpmn(s, modeler.token, bpmnFixture("approval.bpmn"));
    expect(
      (await s.req("POST", "/api/a/definitions/approval/forms", { token: modeler.token, json: REVIEW_FORM })).status,
    ).toBe(201);
  });
  afterAll(() => s.close());
}
