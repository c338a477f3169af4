import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { startFakeOpenAi, type FakeOpenAi } from "../harness/openai-server";
import { deployBpmn, startProcess } from "../harness/process";

const model = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" targetNamespace="t">
  <process id="claim" name="Claim" isExecutable="true">${body}</process></definitions>`;
const CLAIM = model(`<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="review"/>
  <userTask id="review" name="Review claim" flowable:formKey="reviewForm"/>
  <sequenceFlow id="f1" sourceRef="review" targetRef="e"/><endEvent id="e"/>`);
const SMELLY = model(`<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/><exclusiveGateway id="g"/>
  <sequenceFlow id="a" sourceRef="g" targetRef="t"><conditionExpression>\${x}</conditionExpression></sequenceFlow>
  <sequenceFlow id="b" sourceRef="g" targetRef="e"/><userTask id="t"/><endEvent id="e"/><userTask id="lonely"/>`);
const FORM = {
  fields: [
    { key: "amount", type: "number", label: "Amount" },
    { key: "category", type: "select", label: "Category", options: ["car", "home"] },
    { key: "notes", type: "textarea", label: "Notes" },
    { key: "intro", type: "heading", label: "Read this" },
  ],
};

let ai: FakeOpenAi;
let s: TestServer;
let bare: TestServer;
let listener: ReturnType<typeof Bun.serve>;
const tok: Record<string, string> = {};
let tenantId = "";
let modelerId = "";
let taskId = "";
let bareTask = "";
let bareModeler = "";

async function setupClaim(srv: TestServer, token: string) {
  await deployBpmn(srv, token, CLAIM);
  const f = await srv.req("POST", "/api/a/definitions/claim/forms", {
    token,
    json: { key: "reviewForm", name: "Review", schema: FORM },
  });
  expect(f.status).toBe(201);
  const i = await startProcess(srv, token, { definitionKey: "claim", variables: { amount: 100, customer: "Ana" } });
  return i.activeTasks[0].id;
}

beforeAll(async () => {
  ai = startFakeOpenAi();
  const env = { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", SSE_HEARTBEAT_MS: "40" };
  s = await startTestServer({ env });
  bare = await startTestServer({ env: { SSE_HEARTBEAT_MS: "40" } });
  listener = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req, srv) => s.app.fetch(req, { server: srv }) });
  const sa = await saToken(s);
  tok.SA = sa;
  const t = await createTenant(s, "assist-a", sa);
  tenantId = t.id;
  const m = await userInTenant(s, t, "MODELER", sa);
  tok.MODELER = m.token;
  modelerId = m.id;
  tok.ADMIN = (await userInTenant(s, t, "ADMIN", sa)).token;
  tok.MANAGER = (await userInTenant(s, t, "MANAGER", sa)).token;
  tok.USER = (await userInTenant(s, t, "USER", sa)).token;
  const other = await createTenant(s, "assist-b", sa);
  tok.OTHER_ADMIN = (await userInTenant(s, other, "ADMIN", sa)).token;
  tok.OTHER_MODELER = (await userInTenant(s, other, "MODELER", sa)).token;
  await deployBpmn(s, tok.OTHER_ADMIN, CLAIM);
  taskId = await setupClaim(s, tok.ADMIN);
  const bsa = await saToken(bare);
  const bt = await createTenant(bare, "assist-bare", bsa);
  const ba = await userInTenant(bare, bt, "ADMIN", bsa);
  bareModeler = ba.token;
  bareTask = await setupClaim(bare, ba.token);
});
afterAll(async () => {
  listener.stop(true);
  await s.close();
  await bare.close();
  ai.stop();
});

const setQuota = async (monthlyTokens: number) =>
  expect(
    (await s.req("PUT", `/api/admin/tenants/${tenantId}/ai-quota`, { token: tok.SA, json: { monthlyTokens } })).status,
  ).toBe(200);
const suggest = (token: string, id: string, json?: unknown, srv = s) =>
  srv.req("POST", `/api/a/tasks/${id}/ai-suggest`, { token, json });

describe("process documentation", () => {
  test("anyone reads, a Manager writes and deletes, a Modeler or User is refused, another tenant gets 404", async () => {
    const path = "/api/a/definitions/claim/documentation";
    expect(await (await s.req("GET", path, { token: tok.USER })).json()).toMatchObject({ description: null });
    await expectError(await s.req("PUT", path, { token: tok.USER, json: { description: "x" } }), 403);
    await expectError(await s.req("PUT", path, { token: tok.MODELER, json: { description: "x" } }), 403);
    await expectError(await s.req("PUT", path, { token: tok.MANAGER, json: { description: "  " } }), 400);
    await expectError(await s.req("PUT", path, { token: tok.MANAGER, json: {} }), 400);
    const put = await s.req("PUT", path, { token: tok.MANAGER, json: { description: "Claims are reviewed." } });
    expect(await put.json()).toMatchObject({ key: "claim", description: "Claims are reviewed." });
    expect(await (await s.req("GET", path, { token: tok.USER })).json()).toMatchObject({
      description: "Claims are reviewed.",
    });
    await expectError(await s.req("GET", "/api/a/definitions/nope/documentation", { token: tok.USER }), 404);
    // Tenant B holds a process under the same key: its documentation is its own, and A's text never shows there.
    expect(await (await s.req("GET", path, { token: tok.OTHER_ADMIN })).json()).toMatchObject({ description: null });
    await expectError(await s.req("DELETE", path, { token: tok.MODELER }), 403);
    expect((await s.req("DELETE", path, { token: tok.MANAGER })).status).toBe(204);
    expect(await (await s.req("GET", path, { token: tok.USER })).json()).toMatchObject({ description: null });
    await s.req("PUT", path, { token: tok.MANAGER, json: { description: "Claims are reviewed." } });
  });
});

describe("402 before the tenant quota is configured", () => {
  test("ai-suggest, AI validation, the copilot and the documentation proposal refuse without calling the model", async () => {
    const calls = ai.calls.length;
    await expectError(await suggest(tok.ADMIN, taskId), 402);
    await expectError(
      await s.req("POST", "/api/a/ai-validation/bpmn", { token: tok.MODELER, json: { xml: SMELLY } }),
      402,
    );
    await expectError(
      await s.req("POST", "/api/a/modeler/copilot/stream", { token: tok.MODELER, json: { question: "What?" } }),
      402,
    );
    await expectError(
      await s.req("POST", "/api/a/definitions/claim/documentation/propose", { token: tok.MODELER }),
      402,
    );
    expect(ai.calls.length).toBe(calls);
  });
});

describe("with a configured quota", () => {
  beforeAll(() => setQuota(1_000_000));

  test("ai-suggest answers only the form's fields with conflict flags and writes nothing", async () => {
    const saved = await (await s.req("GET", `/api/a/tasks/${taskId}/variables`, { token: tok.ADMIN })).json();
    ai.script.push({
      content: JSON.stringify({
        suggestions: [
          { field: "amount", value: 250, reason: "The policy says 250." },
          { field: "category", value: "car", reason: "Policy type." },
          { field: "notes", value: "Checked", reason: "Draft." },
          { field: "customer", value: "Bob", reason: "Not a form field." },
          { field: "intro", value: "x", reason: "A heading holds no value." },
        ],
      }),
    });
    const r = await suggest(tok.ADMIN, taskId, { draft: { category: "car", notes: "Other text" } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual([
      { field: "amount", value: 250, reason: "The policy says 250.", conflictsWithCurrent: true },
      { field: "category", value: "car", reason: "Policy type.", conflictsWithCurrent: false },
      { field: "notes", value: "Checked", reason: "Draft.", conflictsWithCurrent: true },
    ]);
    const prompt = JSON.stringify(ai.calls.at(-1)?.body.messages);
    expect(prompt).toContain("Other text");
    expect(prompt).toContain("Ana");
    expect(await (await s.req("GET", `/api/a/tasks/${taskId}/variables`, { token: tok.ADMIN })).json()).toEqual(saved);
    const usage = s.platform.platformSqlite
      .query<{ feature: string }, []>("SELECT feature FROM ai_usage ORDER BY created_at DESC, rowid DESC LIMIT 1")
      .get();
    expect(usage?.feature).toBe("ai-suggest");
  });

  test("a saved value equal to the suggestion is no conflict; an empty body is valid", async () => {
    ai.script.push({ content: JSON.stringify({ suggestions: [{ field: "amount", value: "100", reason: "Saved." }] }) });
    const r = await s.req("POST", `/api/a/tasks/${taskId}/ai-suggest`, { token: tok.ADMIN });
    expect(await r.json()).toEqual([{ field: "amount", value: "100", reason: "Saved.", conflictsWithCurrent: false }]);
  });

  test("a task the caller cannot see, or another tenant's, answers 404; no model installed answers 409", async () => {
    await expectError(await suggest(tok.OTHER_ADMIN, taskId), 404);
    await expectError(await suggest(tok.ADMIN, "no-such-task"), 404);
    await expectError(await suggest(bareModeler, bareTask, {}, bare), 409);
  });

  test("AI validation returns the structural findings and the model's review; 409 without a model; 400 for bad XML", async () => {
    ai.script.push({
      content: JSON.stringify({
        summary: "Mostly sound.",
        issues: [{ severity: "warning", elementId: "t", message: "No owner." }],
      }),
    });
    const r = await s.req("POST", "/api/a/ai-validation/bpmn", { token: tok.MODELER, json: { xml: SMELLY } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { findings: { code: string }[]; review: unknown };
    expect(body.findings.map((f) => f.code)).toContain("ORPHAN");
    expect(body.review).toEqual({
      summary: "Mostly sound.",
      issues: [{ severity: "warning", elementId: "t", message: "No owner." }],
    });
    await expectError(
      await s.req("POST", "/api/a/ai-validation/bpmn", { token: tok.USER, json: { xml: SMELLY } }),
      403,
    );
    await expectError(
      await s.req("POST", "/api/a/ai-validation/bpmn", { token: tok.MODELER, json: { xml: "<x" } }),
      400,
    );
    await expectError(
      await bare.req("POST", "/api/a/ai-validation/bpmn", { token: bareModeler, json: { xml: SMELLY } }),
      409,
    );
  });

  test("the documentation proposal describes the deployed model and writes nothing", async () => {
    ai.script.push({ content: JSON.stringify({ description: "A claim is reviewed, then closed." }) });
    const r = await s.req("POST", "/api/a/definitions/claim/documentation/propose", { token: tok.MODELER });
    expect(await r.json()).toMatchObject({
      key: "claim",
      description: "A claim is reviewed, then closed.",
      current: "Claims are reviewed.",
      source: "deployed",
    });
    expect(JSON.stringify(ai.calls.at(-1)?.body.messages)).toContain("Review claim");
    const doc = await (await s.req("GET", "/api/a/definitions/claim/documentation", { token: tok.USER })).json();
    expect(doc).toMatchObject({ description: "Claims are reviewed." });
    await expectError(
      await s.req("POST", "/api/a/definitions/claim/documentation/propose", { token: tok.MANAGER }),
      403,
    );
    await expectError(
      await bare.req("POST", "/api/a/definitions/claim/documentation/propose", { token: bareModeler }),
      409,
    );
  });

  test("the copilot streams SSE frames as they arrive, with heartbeats while the model is slow", async () => {
    ai.chatDelayMs = 300;
    ai.script.push({ content: 'Add this: ```xml <userTask id="approve"/> ``` done' });
    const res = await fetch(`http://127.0.0.1:${listener.port}/api/a/modeler/copilot/stream`, {
      method: "POST",
      headers: { authorization: `Bearer ${tok.MODELER}`, "content-type": "application/json" },
      body: JSON.stringify({ question: "Add an approval", processKey: "claim", mode: "propose" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    const chunks: { at: number; text: string }[] = [];
    const t0 = performance.now();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push({ at: performance.now() - t0, text: dec.decode(value) });
    }
    ai.chatDelayMs = 0;
    const all = chunks.map((c) => c.text).join("");
    const heartbeatAt = chunks.find((c) => c.text.includes(": heartbeat"))?.at ?? Number.POSITIVE_INFINITY;
    const firstDeltaAt = chunks.find((c) => c.text.includes("event: delta"))?.at ?? -1;
    // Heartbeats arrived on their own, before the model's first word: the stream is not buffered.
    expect(heartbeatAt).toBeLessThan(firstDeltaAt);
    const deltas = [...all.matchAll(/event: delta\ndata: (.*)\n\n/g)].map((m) => JSON.parse(m[1]).text).join("");
    expect(deltas).toBe('Add this: ```xml <userTask id="approve"/> ``` done');
    expect(all).toMatch(/event: done\ndata: \{"chars":\d+\}/);
    expect(JSON.stringify(ai.calls.at(-1)?.body.messages)).toContain("Claims are reviewed.");
    const row = s.platform.platformSqlite
      .query<{ user_id: string; tenant_id: string; actor_kind: string }, []>(
        "SELECT user_id, tenant_id, actor_kind FROM ai_usage WHERE feature = 'copilot'",
      )
      .get();
    expect(row).toEqual({ user_id: modelerId, tenant_id: tenantId, actor_kind: "USER" });
  });

  test("the copilot refuses a User (403), another tenant's key (404), no model (409) and an exhausted quota (402)", async () => {
    const ask = (token: string, json: unknown, srv = s) =>
      srv.req("POST", "/api/a/modeler/copilot/stream", { token, json });
    await expectError(await ask(tok.USER, { question: "x" }), 403);
    await expectError(await ask(tok.MODELER, { question: "x", processKey: "nope" }), 404);
    await expectError(await ask(tok.MODELER, { question: "" }), 400);
    await expectError(await ask(bareModeler, { question: "x" }, bare), 409);
    await setQuota(1);
    await expectError(await ask(tok.MODELER, { question: "x" }), 402);
    await setQuota(1_000_000);
  });
});
