import { afterAll, beforeAll, expect } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture } from "../harness/process";

export const APPROVAL = bpmnFixture("approval.bpmn");
export type U = Awaited<ReturnType<typeof userInTenant>>;
export let s: TestServer;
export let modeler: U, manager: U, user: U, approver: U, outsider: U, otherAdmin: U;

/** Registers the suite's setup: a test server, the tenant and users its scenarios share. */
export function useProcessRoutesScenario(): void {
  beforeAll(async () => {
    s = await startTestServer();
    const sa = await saToken(s);
    const t = await createTenant(s, "proc-a", sa);
    const other = await createTenant(s, "proc-b", sa);
    [modeler, manager, user, approver, outsider] = await Promise.all(
      (["MODELER", "MANAGER", "USER", "USER", "USER"] as const).map((r) => userInTenant(s, t, r, sa)),
    );
    otherAdmin = await userInTenant(s, other, "ADMIN", sa);
    // `approver` holds the process role named by the user task's candidate group.
    const role = await s.req("POST", "/api/a/process-roles", {
      token: modeler.token,
      json: { processKey: "approval", key: "approvers", name: "Approvers" },
    });
    expect(role.status).toBe(201);
    const roleId = (await role.json()).id;
    expect(
      (
        await s.req("POST", `/api/a/process-roles/${roleId}/members`, {
          token: modeler.token,
          json: { userId: approver.id },
        })
      ).status,
    ).toBeLessThan(300);
  });
  afterAll(() => s.close());
}
