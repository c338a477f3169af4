import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saTenantToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { bpmn } from "../fixtures/bpmn/harness";

const DAY = 86_400_000;
let s: TestServer;
let admin: string;
let modeler: string;
let manager: string;
let otherAdmin: string;
const tenants: { slug: string }[] = [];
/** Fresh tokens after the clock moved days ahead (access tokens expire meanwhile). */
const relogin = async () => {
  admin = await saTenantToken(s, tenants[0] as { slug: string });
  otherAdmin = await saTenantToken(s, tenants[1] as { slug: string });
};

const CASE = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/CMMN/20151109/MODEL" targetNamespace="t">
  <case id="shortCase" name="Short case"><casePlanModel id="plan" name="Plan">
    <planItem id="piA" name="A" definitionRef="a"/><planItem id="piFlat" name="Flat" definitionRef="runFlat"/>
    <humanTask id="a" name="A"/><processTask id="runFlat" processRef="flatRef" isBlocking="false"/>
  </casePlanModel></case>
  <process id="flatRef" externalRef="flat"/>
</definitions>`;
const FLAT = bpmn("flat", `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e"/>`);

const oneTask = (id: string) =>
  bpmn(
    id,
    `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
     <userTask id="t" name="Review"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
  );

async function finished(key: string) {
  const i = await startProcess(s, admin, { definitionKey: key });
  const taskId = i.activeTasks[0]?.id as string;
  expect(
    (await s.req("POST", `/api/a/tasks/${taskId}/comments`, { token: admin, json: { message: "hi" } })).status,
  ).toBe(201);
  const done = await s.req("POST", `/api/a/tasks/${taskId}/complete`, { token: admin, json: { variables: {} } });
  expect(done.status).toBe(200);
  return i.id;
}

beforeAll(async () => {
  s = await startTestServer({ env: { HISTORY_CLEANUP_WINDOW: "off", HISTORY_CLEANUP_BATCH_SIZE: "2" } });
  const tenant = await createTenant(s, "retention");
  tenants.push(tenant, await createTenant(s, "retention-other"));
  admin = await saTenantToken(s, tenant);
  modeler = (await userInTenant(s, tenant, "MODELER")).token;
  manager = (await userInTenant(s, tenant, "MANAGER")).token;
  otherAdmin = await saTenantToken(s, tenants[1] as { slug: string });
  await deployBpmn(s, admin, oneTask("short"), "short.bpmn");
  await deployBpmn(s, admin, oneTask("long"), "long.bpmn");
  await deployBpmn(s, otherAdmin, oneTask("short"), "short.bpmn");
});
afterAll(() => s.close());

describe("history time-to-live through HTTP", () => {
  test("a Modeler sets historyTimeToLive in the definition config; bad values answer 400 and change nothing", async () => {
    const put = (json: unknown, token = modeler) => s.req("PUT", "/api/a/definitions/short/config", { token, json });
    for (const bad of [-1, 1.5, 36_501, "7", true]) await expectError(await put({ historyTimeToLive: bad }), 400);
    expect(((await (await put({})).json()) as { historyTimeToLive: unknown }).historyTimeToLive).toBeNull();
    const ok = await put({ historyTimeToLive: 3 });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ historyTimeToLive: 3, mcpPolicy: "NONE" });
    // Other fields keep the TTL; a USER-level role cannot set it.
    expect(await (await put({ mcpPolicy: "START_AND_READ" })).json()).toMatchObject({ historyTimeToLive: 3 });
    await expectError(await put({ historyTimeToLive: 1 }, manager), 403);
  });

  test("the tenant default is an Admin's: read, set, null, validated; other roles are refused", async () => {
    const get = (token: string) => s.req("GET", "/api/a/history/retention", { token });
    const put = (json: unknown, token = admin) => s.req("PUT", "/api/a/history/retention", { token, json });
    expect(await (await get(admin)).json()).toEqual({ defaultHistoryTimeToLive: null });
    await expectError(await get(modeler), 403);
    await expectError(await put({ defaultHistoryTimeToLive: 5 }, modeler), 403);
    await expectError(await put({ defaultHistoryTimeToLive: 5 }, manager), 403);
    for (const bad of [{}, { defaultHistoryTimeToLive: -3 }, { defaultHistoryTimeToLive: 0.5 }])
      await expectError(await put(bad), 400);
    expect(await (await put({ defaultHistoryTimeToLive: 10 })).json()).toEqual({ defaultHistoryTimeToLive: 10 });
    expect(await (await get(admin)).json()).toEqual({ defaultHistoryTimeToLive: 10 });
    // Another tenant's default is its own.
    expect(await (await get(otherAdmin)).json()).toEqual({ defaultHistoryTimeToLive: null });
  });

  test("the cleanup removes the expired ended instances only, in batches, and /metrics shows it", async () => {
    const short = [await finished("short"), await finished("short"), await finished("short")];
    const long = await finished("long");
    const running = (await startProcess(s, admin, { definitionKey: "short" })).id;
    const otherShort = (await startProcess(s, otherAdmin, { definitionKey: "short" })).id;
    s.clock.advance(4 * DAY); // past short's 3 days, within the tenant default of 10 for long
    expect(await s.platform.historyCleanup.runNow()).toBe(3);
    await relogin();
    for (const id of short) {
      await expectError(await s.req("GET", `/api/a/history/instances/${id}`, { token: admin }), 404);
      await expectError(await s.req("GET", `/api/a/history/instances/${id}/activities`, { token: admin }), 404);
    }
    expect((await s.req("GET", `/api/a/history/instances/${long}`, { token: admin })).status).toBe(200);
    expect((await s.req("GET", `/api/a/instances/${running}`, { token: admin })).status).toBe(200);
    expect((await s.req("GET", `/api/a/instances/${otherShort}`, { token: otherAdmin })).status).toBe(200);
    const dash = (await (await s.req("GET", "/api/a/dashboard", { token: admin })).json()) as Record<string, number>;
    expect([dash.runningInstances, dash.finishedInstances]).toEqual([1, 1]);

    s.clock.advance(7 * DAY); // now past the tenant default too
    expect(await s.platform.historyCleanup.runNow()).toBe(1);
    expect(await s.platform.historyCleanup.runNow()).toBe(0);
    const metrics = await (await s.req("GET", "/metrics")).text();
    expect(metrics).toContain('history_cleanup_removed_total{what="instances"} 4');
    expect(metrics).toMatch(/history_cleanup_removed_total\{what="rows"\} \d{2,}/);
    // Batches of HISTORY_CLEANUP_BATCH_SIZE=2: 3 instances took two batches, the last one one more.
    expect(metrics).toContain("history_cleanup_batch_duration_seconds_count 3");
    expect(metrics).toContain("history_cleanup_backlog 0");
  });

  test("ended cases go too, with their tasks; a process a running case started stays while the case runs", async () => {
    await relogin();
    await deployBpmn(s, admin, FLAT, "flat.bpmn");
    await deployBpmn(s, admin, CASE, "short.cmmn");
    const put = (key: string, days: number) =>
      s.req("PUT", `/api/a/definitions/${key}/config`, { token: admin, json: { historyTimeToLive: days } });
    expect((await put("shortCase", 1)).status).toBe(200);
    expect((await put("flat", 0)).status).toBe(200);
    const dashboard = async () =>
      (await (await s.req("GET", "/api/a/dashboard", { token: admin })).json()) as Record<string, number>;
    const before = await dashboard();
    const cases = [];
    for (let i = 0; i < 3; i++) cases.push(await startProcess(s, admin, { definitionKey: "shortCase" }));
    expect((await dashboard()).activeTasks).toBe(before.activeTasks + 3);
    for (const c of cases.slice(0, 2)) {
      const task = c.activeTasks[0]?.id as string;
      expect(
        (await s.req("POST", `/api/a/tasks/${task}/comments`, { token: admin, json: { message: "m" } })).status,
      ).toBe(201);
      expect((await s.req("POST", `/api/a/tasks/${task}/complete`, { token: admin, json: {} })).status).toBe(200);
    }
    const running = cases[2]!;
    const after = await dashboard();
    expect(after.activeTasks).toBe(before.activeTasks + 1);
    expect(after.finishedInstances).toBe(before.finishedInstances + 5); // two cases, three flat processes
    s.clock.advance(2 * DAY);
    await relogin();
    const metricsBefore = await (await s.req("GET", "/metrics")).text();
    // The two ended cases and the flat processes of those two; the running case keeps its own.
    expect(await s.platform.historyCleanup.runNow()).toBe(4);
    for (const c of cases.slice(0, 2))
      await expectError(await s.req("GET", `/api/a/history/instances/${c.id}`, { token: admin }), 404);
    expect((await s.req("GET", `/api/a/instances/${running.id}`, { token: admin })).status).toBe(200);
    const flats = (await (await s.req("GET", "/api/a/history/instances?type=BPMN", { token: admin })).json()) as {
      content: { definitionKey: string; parentInstanceId: string | null }[];
    };
    expect(flats.content.filter((i) => i.definitionKey === "flat").map((i) => i.parentInstanceId)).toEqual([
      running.id,
    ]);
    const done = await dashboard();
    expect([done.runningInstances, done.finishedInstances, done.activeTasks]).toEqual([
      after.runningInstances,
      after.finishedInstances - 4,
      after.activeTasks,
    ]);
    const metrics = await (await s.req("GET", "/metrics")).text();
    expect(metricsBefore).toContain('history_cleanup_removed_total{what="cases"} 0');
    expect(metrics).toContain('history_cleanup_removed_total{what="cases"} 2');
    expect(metrics).toContain('history_cleanup_removed_total{what="instances"} 6');
  });
});
