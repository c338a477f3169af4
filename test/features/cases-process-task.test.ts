import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";

const WAITER = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="waiter" name="Waiter" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="wait" />
    <intermediateCatchEvent id="wait"><timerEventDefinition><timeDuration>PT10M</timeDuration></timerEventDefinition></intermediateCatchEvent>
    <sequenceFlow id="f2" sourceRef="wait" targetRef="e" /><endEvent id="e" />
  </process>
</definitions>`;

const CASE = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" targetNamespace="t">
  <case id="waitingCase" name="Waiting case">
    <casePlanModel id="plan" name="Plan">
      <planItem id="piProcess" name="Run the waiter" definitionRef="runWaiter" />
      <planItem id="piDone" name="Waiter finished" definitionRef="done">
        <entryCriterion id="c1" sentryRef="afterProcess" />
      </planItem>
      <sentry id="afterProcess"><planItemOnPart id="op" sourceRef="piProcess"><standardEvent>complete</standardEvent></planItemOnPart></sentry>
      <processTask id="runWaiter" processRef="waiterRef" isBlocking="true" />
      <milestone id="done" name="Waiter finished" />
    </casePlanModel>
  </case>
  <process id="waiterRef" externalRef="waiter" />
</definitions>`;

let s: TestServer;
let admin: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  admin = await userInTenant(s, await createTenant(s, "case-proc", sa), "ADMIN", sa);
  await deployBpmn(s, admin.token, WAITER);
  await deployBpmn(s, admin.token, CASE, "waiting.cmmn");
});
afterAll(() => s.close());

describe("a blocking process task", () => {
  test("moves its case on when the process ends through the job executor (a timer), not only through a REST call", async () => {
    const kase = await startProcess(s, admin.token, { definitionKey: "waitingCase" });
    const items = async () =>
      Object.fromEntries(
        (
          (await (await s.req("GET", `/api/a/instances/${kase.id}/plan-items?`, { token: admin.token })).json()) as {
            elementId: string;
            state: string;
          }[]
        ).map((i) => [i.elementId, i.state]),
      );
    expect(await items()).toMatchObject({ piProcess: "ACTIVE", piDone: "AVAILABLE" });
    const running = await (await s.req("GET", "/api/a/instances?type=BPMN", { token: admin.token })).json();
    expect(running.content.map((i: { definitionKey: string }) => i.definitionKey)).toEqual(["waiter"]);
    s.clock.advance(10 * 60_000 + 1000);
    await s.platform.processRuntime.runDueJobs();
    const milestones = await (
      await s.req("GET", `/api/a/instances/${kase.id}/milestones`, { token: admin.token })
    ).json();
    expect(milestones.map((m: { elementId: string }) => m.elementId)).toEqual(["piDone"]);
    const hist = await (await s.req("GET", `/api/a/history/instances/${kase.id}`, { token: admin.token })).json();
    expect(hist).toMatchObject({ type: "CMMN", ended: true });
  });

  test("the process it starts records the case as its parent (list, detail and the case's own id)", async () => {
    const kase = await startProcess(s, admin.token, { definitionKey: "waitingCase" });
    const running = await (await s.req("GET", "/api/a/instances?type=BPMN", { token: admin.token })).json();
    const child = running.content.find((i: { parentInstanceId: string | null }) => i.parentInstanceId === kase.id);
    expect(child).toMatchObject({ definitionKey: "waiter", type: "BPMN" });
    const detail = await (await s.req("GET", `/api/a/instances/${child.id}`, { token: admin.token })).json();
    expect(detail.parentInstanceId).toBe(kase.id);
    const parent = await (
      await s.req("GET", `/api/a/instances/${detail.parentInstanceId}`, { token: admin.token })
    ).json();
    expect(parent).toMatchObject({ id: kase.id, type: "CMMN" });
  });
});
