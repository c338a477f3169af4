import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";

const MODEL = readFileSync(
  join(import.meta.dir, "../fixtures/bpmn/third-party/AdhocSubProcessTest.testSimpleAdhocSubProcess.bpmn20.xml"),
  "utf8",
);
type U = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let manager: U, outsider: U;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "adhoc", sa);
  [manager, outsider] = await Promise.all((["ADMIN", "USER"] as const).map((r) => userInTenant(s, t, r, sa)));
  await deployBpmn(
    s,
    manager.token,
    MODEL.replace('<process id="simpleSubProcess">', '<process id="simpleSubProcess" isExecutable="true">'),
    "adhoc.bpmn20.xml",
  );
});
afterAll(() => s.close());

describe("ad-hoc subprocesses over HTTP", () => {
  test("lists the enabled activities, starts one, then completes the subprocess so the instance moves on", async () => {
    const inst = await startProcess(s, manager.token, { definitionKey: "simpleSubProcess" });
    expect(inst.activeTasks).toEqual([]);
    const enabled = await (
      await s.req("GET", `/api/a/instances/${inst.id}/adhoc-activities`, { token: manager.token })
    ).json();
    expect(enabled.map((a: { activityId: string }) => a.activityId).sort()).toEqual([
      "subProcessTask",
      "subProcessTask2",
    ]);
    const started = await (
      await s.req("POST", `/api/a/instances/${inst.id}/adhoc-activities/subProcessTask/execute`, {
        token: manager.token,
      })
    ).json();
    expect(started.activeTasks.map((t: { name: string }) => t.name)).toEqual(["Task in subprocess"]);
    // Sequential ordering: a second activity cannot start while the first runs, nor can the subprocess complete.
    await expectError(
      await s.req("POST", `/api/a/instances/${inst.id}/adhoc-activities/subProcessTask2/execute`, {
        token: manager.token,
      }),
      409,
    );
    await expectError(
      await s.req("POST", `/api/a/instances/${inst.id}/adhoc-subprocesses/adhocSubProcess/complete`, {
        token: manager.token,
      }),
      409,
    );
    expect(
      (await s.req("POST", `/api/a/tasks/${started.activeTasks[0].id}/complete`, { token: manager.token, json: {} }))
        .status,
    ).toBe(200);
    const done = await s.req("POST", `/api/a/instances/${inst.id}/adhoc-subprocesses/adhocSubProcess/complete`, {
      token: manager.token,
    });
    expect(await done.json()).toEqual({ instanceId: inst.id, subProcessId: "adhocSubProcess", completed: true });
    const detail = await (await s.req("GET", `/api/a/instances/${inst.id}`, { token: manager.token })).json();
    expect(detail.activeActivityIds).toEqual(["afterTask"]);
  });

  test("someone who takes no part in the instance gets 404", async () => {
    const inst = await startProcess(s, manager.token, { definitionKey: "simpleSubProcess" });
    await expectError(
      await s.req("GET", `/api/a/instances/${inst.id}/adhoc-activities`, { token: outsider.token }),
      404,
    );
    await expectError(
      await s.req("POST", `/api/a/instances/${inst.id}/adhoc-activities/subProcessTask/execute`, {
        token: outsider.token,
      }),
      404,
    );
  });
});
