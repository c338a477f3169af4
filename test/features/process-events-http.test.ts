import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { bpmn } from "../fixtures/bpmn/harness";

type U = Awaited<ReturnType<typeof userInTenant>>;
let s: TestServer;
let admin: U, manager: U, user: U, other: U;
let writeKey: string, readKey: string;

// Waits on a message (intermediate catch), then a receive task; a signal start process beside it.
const ORDER = bpmn(
  "order",
  `<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="paid"/>
  <intermediateCatchEvent id="paid"><messageEventDefinition messageRef="m"/></intermediateCatchEvent>
  <sequenceFlow id="f1" sourceRef="paid" targetRef="ship"/><receiveTask id="ship"/>
  <sequenceFlow id="f2" sourceRef="ship" targetRef="check"/><userTask id="check"/>
  <sequenceFlow id="f3" sourceRef="check" targetRef="e"/><endEvent id="e"/>`,
  `<message id="m" name="paymentReceived"/>`,
);
const ONLY_MESSAGE = bpmn(
  "inbound",
  `<startEvent id="s"><messageEventDefinition messageRef="m2"/></startEvent><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>`,
  `<message id="m2" name="invoiceArrived"/>`,
);
const ON_SIGNAL = bpmn(
  "alarm",
  `<startEvent id="s"><signalEventDefinition signalRef="g"/></startEvent><sequenceFlow id="f0" sourceRef="s" targetRef="t"/><userTask id="t"/>`,
  `<signal id="g" name="fire"/>`,
);

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const [ta, tb] = [await createTenant(s, "events-a", sa), await createTenant(s, "events-b", sa)];
  [admin, manager, user] = await Promise.all(
    (["ADMIN", "MANAGER", "USER"] as const).map((r) => userInTenant(s, ta, r, sa)),
  );
  other = await userInTenant(s, tb, "ADMIN", sa);
  for (const xml of [ORDER, ONLY_MESSAGE, ON_SIGNAL]) await deployBpmn(s, admin.token, xml);
  await deployBpmn(s, other.token, ORDER);
  writeKey = (await apiKey(s, admin.token, ["write", "read"])).key;
  readKey = (await apiKey(s, admin.token, ["read"])).key;
});
afterAll(() => s.close());

const post = (path: string, json: unknown, auth: { token?: string; apiKey?: string }) =>
  s.req("POST", `/api${path}`, { ...auth, json });

describe("POST /a/messages", () => {
  test("correlates by business key, 409 when several wait and all is not set, all delivers to each", async () => {
    const a = await startProcess(s, admin.token, { definitionKey: "order", businessKey: "A" });
    const b = await startProcess(s, admin.token, { definitionKey: "order", businessKey: "B" });
    await expectError(
      await post("/a/messages", { messageName: "paymentReceived" }, { token: user.token }),
      409,
      /2 subscriptions/,
    );
    const one = await post(
      "/a/messages",
      { messageName: "paymentReceived", businessKey: "A", variables: { paid: 1 } },
      { token: user.token },
    );
    expect(one.status).toBe(200);
    expect(await one.json()).toEqual({
      messageName: "paymentReceived",
      correlated: [{ instanceId: a.id, started: false }],
    });
    const detail = await (await s.req("GET", `/api/a/instances/${a.id}`, { token: admin.token })).json();
    expect(detail.activeActivityIds).toEqual(["ship"]);
    expect(detail.variables.paid).toBe(1);
    // Nothing waits any more for A: 404; correlation keys select B by its variables.
    await expectError(
      await post("/a/messages", { messageName: "paymentReceived", businessKey: "A" }, { token: user.token }),
      404,
    );
    const c = await startProcess(s, admin.token, { definitionKey: "order", variables: { orderNo: 7 } });
    const byKey = await post(
      "/a/messages",
      { messageName: "paymentReceived", correlationKeys: { orderNo: 7 } },
      { apiKey: writeKey },
    );
    expect((await byKey.json()).correlated).toEqual([{ instanceId: c.id, started: false }]);
    await startProcess(s, admin.token, { definitionKey: "order", businessKey: "B" });
    const all = await post(
      "/a/messages",
      { messageName: "paymentReceived", businessKey: "B", all: true },
      { token: user.token },
    );
    expect((await all.json()).correlated).toHaveLength(2);
    expect(b.id).toBeString();
  });

  test("a message start event starts its process; an unknown message is 404", async () => {
    const r = await post("/a/messages", { messageName: "invoiceArrived", businessKey: "INV-9" }, { apiKey: writeKey });
    const body = await r.json();
    expect(body.correlated[0].started).toBe(true);
    const detail = await (
      await s.req("GET", `/api/a/instances/${body.correlated[0].instanceId}`, { token: admin.token })
    ).json();
    expect(detail).toMatchObject({ definitionKey: "inbound", businessKey: "INV-9" });
    await expectError(await post("/a/messages", { messageName: "nobodyListens" }, { token: user.token }), 404);
  });

  test("refusals: malformed body 400, read-only API key 403, another tenant's instances are never reached", async () => {
    await expectError(await post("/a/messages", { businessKey: "x" }, { token: user.token }), 400);
    await expectError(await post("/a/messages", { messageName: "" }, { token: user.token }), 400);
    expect((await post("/a/messages", { messageName: "paymentReceived" }, { apiKey: readKey })).status).toBe(403);
    const mine = await startProcess(s, other.token, { definitionKey: "order", businessKey: "OTHER" });
    await expectError(
      await post("/a/messages", { messageName: "paymentReceived", businessKey: "OTHER" }, { token: admin.token }),
      404,
    );
    const theirs = await post(
      "/a/messages",
      { messageName: "paymentReceived", businessKey: "OTHER" },
      { token: other.token },
    );
    expect((await theirs.json()).correlated).toEqual([{ instanceId: mine.id, started: false }]);
  });
});

describe("POST /a/signals", () => {
  test("broadcasts to the tenant's signal starts only; 0 when nothing listens; read-only key 403", async () => {
    const r = await post("/a/signals", { signalName: "fire", variables: { level: 3 } }, { token: user.token });
    expect(await r.json()).toEqual({ signalName: "fire", triggered: 1 });
    const list = await (await s.req("GET", "/api/a/instances?size=100", { token: admin.token })).json();
    expect(list.content.filter((i: { definitionKey: string }) => i.definitionKey === "alarm")).toHaveLength(1);
    expect(await (await post("/a/signals", { signalName: "fire" }, { token: other.token })).json()).toEqual({
      signalName: "fire",
      triggered: 0,
    });
    expect((await post("/a/signals", { signalName: "fire" }, { apiKey: readKey })).status).toBe(403);
    await expectError(await post("/a/signals", {}, { token: user.token }), 400);
  });
});

describe("instance trigger, activity tree and variables", () => {
  test("trigger moves a receive task on; a user task or a wrong activity is 409; another tenant 404", async () => {
    const i = await startProcess(s, user.token, { definitionKey: "order", businessKey: "T1" });
    await post("/a/messages", { messageName: "paymentReceived", businessKey: "T1" }, { token: user.token });
    await expectError(await post(`/a/instances/${i.id}/trigger`, { activityId: "check" }, { token: user.token }), 409);
    const moved = await post(
      `/a/instances/${i.id}/trigger`,
      { activityId: "ship", variables: { carrier: "UPS" } },
      { apiKey: writeKey },
    );
    expect(moved.status).toBe(200);
    const after = await moved.json();
    expect(after.activeActivityIds).toEqual(["check"]);
    expect(after.variables.carrier).toBe("UPS");
    await expectError(
      await post(`/a/instances/${i.id}/trigger`, { activityId: "check" }, { token: user.token }),
      409,
      /user task/,
    );
    await expectError(await post(`/a/instances/${i.id}/trigger`, { activityId: "ship" }, { token: user.token }), 409);
    await expectError(await post(`/a/instances/${i.id}/trigger`, { activityId: "ship" }, { token: other.token }), 404);
    await expectError(await post(`/a/instances/${i.id}/trigger`, {}, { token: user.token }), 400);
  });

  test("activity tree: the executions per scope, for those who see the instance", async () => {
    const i = await startProcess(s, manager.token, { definitionKey: "order" });
    const r = await s.req("GET", `/api/a/instances/${i.id}/activity-tree`, { token: manager.token });
    expect(r.status).toBe(200);
    const tree = await r.json();
    expect(tree.root).toMatchObject({ executionId: i.id, activityId: "order", kind: "process" });
    expect(tree.root.children).toEqual([
      expect.objectContaining({ activityId: "paid", kind: "activity", state: "active", children: [] }),
    ]);
    expect((await s.req("GET", `/api/a/instances/${i.id}/activity-tree`, { apiKey: readKey })).status).toBe(200);
    // A plain user who takes no part, and another tenant: 404.
    await expectError(await s.req("GET", `/api/a/instances/${i.id}/activity-tree`, { token: user.token }), 404);
    await expectError(await s.req("GET", `/api/a/instances/${i.id}/activity-tree`, { token: other.token }), 404);
  });

  test("PUT variables: Manager merges them; a user or an API key 403, another tenant 404, bad body 400", async () => {
    const i = await startProcess(s, user.token, { definitionKey: "order", variables: { a: 1 } });
    const put = (auth: { token?: string; apiKey?: string }, json: unknown) =>
      s.req("PUT", `/api/a/instances/${i.id}/variables`, { ...auth, json });
    const r = await put({ token: manager.token }, { variables: { b: 2 } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ instanceId: i.id, variables: { a: 1, b: 2 } });
    await expectError(await put({ token: user.token }, { variables: { c: 3 } }), 403);
    await expectError(await put({ apiKey: writeKey }, { variables: { c: 3 } }), 403);
    await expectError(await put({ token: other.token }, { variables: { c: 3 } }), 404);
    await expectError(await put({ token: manager.token }, { variables: "x" }), 400);
    const detail = await (await s.req("GET", `/api/a/instances/${i.id}`, { token: manager.token })).json();
    expect(detail.variables).toEqual({ a: 1, b: 2 });
  });
});

describe("defects seen over HTTP", () => {
  test("a process with only a message start is started by POST /a/instances; a subprocess with nothing to start is a 400", async () => {
    const started = await startProcess(s, admin.token, { definitionKey: "inbound" });
    expect(started.activeTasks.map((t) => t.activityId)).toEqual(["t"]);
    const fd = new FormData();
    const xml = bpmn(
      "nostart",
      `<startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="sub"/><subProcess id="sub"/>`,
    );
    fd.append("file", new File([xml], "n.bpmn", { type: "application/xml" }));
    await expectError(
      await s.req("POST", "/api/a/definitions/deploy", { token: admin.token, body: fd }),
      400,
      /Subprocess 'sub' has no start event/,
    );
  });
});
