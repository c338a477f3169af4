import { eq } from "drizzle-orm";
import { notifications } from "../../db/platform/schema";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";

/** A user task and a case human task assigned by variable, with candidates nobody on the platform is called. */
const BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="t">
  <process id="assigned" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="u"/>
    <userTask id="u" name="Check" flowable:assignee="\${who}" flowable:candidateUsers="kermit,gonzo" flowable:candidateGroups="muppets"/>
  </process>
</definitions>`;
const CMMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" xmlns:flowable="http://flowable.org/cmmn" targetNamespace="t">
  <case id="assignedCase"><casePlanModel id="plan">
    <planItem id="pi" definitionRef="h"/>
    <humanTask id="h" name="Review" flowable:assignee="\${who}" flowable:candidateUsers="kermit" flowable:candidateGroups="muppets"/>
  </casePlanModel></case>
</definitions>`;

let s: TestServer;
let admin: Awaited<ReturnType<typeof userInTenant>>;
let bob: Awaited<ReturnType<typeof userInTenant>>;
let outsider: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const tenant = await createTenant(s, "assignees", sa);
  admin = await userInTenant(s, tenant, "ADMIN", sa);
  bob = await userInTenant(s, tenant, "USER", sa);
  outsider = await userInTenant(s, await createTenant(s, "assignees-other", sa), "USER", sa);
  await deployBpmn(s, admin.token, BPMN);
  await deployBpmn(s, admin.token, CMMN, "assigned.cmmn");
});
afterAll(() => s.close());

const notes = async (token: string) =>
  ((await (await s.req("GET", "/api/a/notifications", { token })).json()).content as { title: string }[]).map(
    (n) => n.title,
  );

describe("tasks for assignees and candidates the platform does not know", () => {
  test.each([
    ["a process user task", "assigned", "Check"],
    ["a case human task", "assignedCase", "Review"],
  ])("%s: created as modelled, no notification, no hook failure in the log", async (_what, definitionKey, name) => {
    const logged = s.logs.length;
    for (const who of ["kermit", outsider.id]) {
      const started = await startProcess(s, admin.token, { definitionKey, variables: { who } });
      const tasks = await (await s.req("GET", `/api/a/tasks?instanceId=${started.id}`, { token: admin.token })).json();
      expect(tasks).toEqual([expect.objectContaining({ name, assignee: who })]);
    }
    // the outsider is a user, but no member of this tenant: nothing is stored for them anywhere
    expect(
      s.platform.platformDb.select().from(notifications).where(eq(notifications.userId, outsider.id)).all(),
    ).toEqual([]);
    expect(s.logs.slice(logged).filter((l) => /hook failed|FOREIGN KEY/i.test(l))).toEqual([]);
    // a member is notified as before
    await startProcess(s, admin.token, { definitionKey, variables: { who: bob.id } });
    expect(await notes(bob.token)).toContain(`New task: ${name}`);
  });
});
