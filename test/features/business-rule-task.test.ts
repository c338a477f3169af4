import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";

let s: TestServer;
let admin: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "rules", sa);
  admin = await userInTenant(s, t, "ADMIN", sa);
  const fd = new FormData();
  fd.append(
    "file",
    new File([readFileSync(join(import.meta.dir, "../fixtures/dmn/discount.dmn"), "utf8")], "discount.dmn"),
  );
  expect((await s.req("POST", "/api/a/decisions", { token: admin.token, body: fd })).status).toBe(201);
  await deployBpmn(s, admin.token, bpmnFixture("discount-rule.bpmn"));
});
afterAll(() => s.close());

describe("business-rule tasks", () => {
  test("evaluate the tenant's decision and store the result in the result variable", async () => {
    const inst = await startProcess(s, admin.token, {
      definitionKey: "pricing",
      variables: { customerType: "GOLD", amount: 2500 },
    });
    const detail = await (await s.req("GET", `/api/a/instances/${inst.id}`, { token: admin.token })).json();
    expect(detail.variables.discount).toBe(0.15);
    expect(detail.activeActivityIds).toEqual(["check"]);
  });

  test("an evaluation error fails the step with an incident naming the decision; the instance waits there, dead-lettered", async () => {
    const inst = await startProcess(s, admin.token, {
      definitionKey: "pricing",
      variables: { customerType: "SILVER", amount: 9000 },
    });
    const jobs = await (await s.req("GET", "/api/a/instances/failed-jobs", { token: admin.token })).json();
    const job = jobs.find((j: { instanceId: string }) => j.instanceId === inst.id);
    expect(job).toMatchObject({ activityId: "rule", state: "DEADLETTER" });
    expect(job.exception).toMatch(/Decision 'discount' failed: .*UNIQUE/);
    const mon = await (await s.req("GET", "/api/a/definitions/pricing/monitor", { token: admin.token })).json();
    expect(mon.activities.find((a: { activityId: string }) => a.activityId === "rule").byReason).toEqual({
      USER_TASK: 0,
      JOB_FAILED: 1,
      JOB_RETRYING: 0,
      TIMER: 0,
      EXECUTING: 0,
    });
  });
});
