import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";

type U = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let admin: U, modeler: U, manager: U, user: U, outsider: U;
let ended = "";
let taskId = "";

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "refusals", sa);
  [admin, modeler, manager, user, outsider] = await Promise.all(
    (["ADMIN", "MODELER", "MANAGER", "USER", "USER"] as const).map((r) => userInTenant(s, t, r, sa)),
  );
  await deployBpmn(s, admin.token, bpmnFixture("approval.bpmn"));
  const inst = await startProcess(s, user.token, { definitionKey: "approval" });
  ended = inst.id;
  expect((await s.req("DELETE", `/api/a/instances/${inst.id}`, { token: manager.token })).status).toBe(200);
  taskId = (
    await (
      await s.req(
        "GET",
        `/api/a/tasks?instanceId=${(await startProcess(s, user.token, { definitionKey: "approval" })).id}`,
        { token: manager.token },
      )
    ).json()
  )[0].id;
});
afterAll(() => s.close());

describe("delegates", () => {
  test("GET /a/delegates needs Modeler or Admin; /a/delegates/active needs Admin; an API key reaches neither", async () => {
    const list = await (await s.req("GET", "/api/a/delegates", { token: modeler.token })).json();
    expect(list.map((d: { name: string }) => d.name)).toEqual(
      expect.arrayContaining(["set-variables", "http", "log", "throw-error"]),
    );
    await expectError(await s.req("GET", "/api/a/delegates", { token: manager.token }), 403);
    await expectError(await s.req("GET", "/api/a/delegates", { token: user.token }), 403);
    await expectError(await s.req("GET", "/api/a/delegates/active", { token: modeler.token }), 403);
    expect((await s.req("GET", "/api/a/delegates/active", { token: admin.token })).status).toBe(200);
    const key = await apiKey(s, admin.token, ["read"]);
    await expectError(await s.req("GET", "/api/a/delegates", { apiKey: key.key }), 403);
  });
});

describe("history", () => {
  test("an ended instance is 404 in history for someone who took no part, visible to its starter", async () => {
    await expectError(await s.req("GET", `/api/a/history/instances/${ended}`, { token: outsider.token }), 404);
    await expectError(
      await s.req("GET", `/api/a/history/instances/${ended}/activities`, { token: outsider.token }),
      404,
    );
    expect((await s.req("GET", `/api/a/history/instances/${ended}`, { token: user.token })).status).toBe(200);
    const page = await (await s.req("GET", "/api/a/history/instances", { token: outsider.token })).json();
    expect(page.content).toEqual([]);
  });
});

describe("malformed bodies on task and instance routes", () => {
  test("answer 400 with field errors and write nothing", async () => {
    await s.req("POST", `/api/a/tasks/${taskId}/claim`, { token: manager.token });
    const bad = await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/complete`, { token: manager.token, json: { variables: [1, 2] } }),
      400,
    );
    expect((bad.fieldErrors as { field: string }[])[0].field).toBe("variables");
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/variables`, { token: manager.token, json: { variables: "x" } }),
      400,
    );
    await expectError(await s.req("POST", `/api/a/tasks/${taskId}/delegate`, { token: manager.token, json: {} }), 400);
    await expectError(
      await s.req("POST", `/api/a/tasks/${taskId}/comments`, { token: manager.token, json: { message: 7 } }),
      400,
    );
    await expectError(await s.req("POST", "/api/a/instances", { token: user.token, json: { definitionKey: "" } }), 400);
    await expectError(await s.req("GET", "/api/a/instances?page=-3", { token: user.token }), 400);
    expect((await (await s.req("GET", `/api/a/tasks/${taskId}`, { token: manager.token })).json()).state).toBe("OPEN");
  });
});
