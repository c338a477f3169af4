import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, saToken, userInTenant } from "../harness/fixtures";
import { startFakeOpenAi, type FakeOpenAi } from "../harness/openai-server";
import type { AiCaller } from "../../app/ai/usage";

let ai: FakeOpenAi;
let s: TestServer;
let bare: TestServer;
const tok: Record<string, string> = {};
let tenantId = "";
let userId = "";
let key = "";

beforeAll(async () => {
  ai = startFakeOpenAi();
  s = await startTestServer({
    env: {
      AI_BASE_URL: ai.url,
      AI_MODEL: "gpt-4o-mini",
      AI_EMBEDDING_MODEL: "fake-embed",
      AI_API_KEY: "sk-test-secret",
    },
  });
  bare = await startTestServer();
  const sa = await saToken(s);
  tok.SA_PLAIN = sa;
  const t = await createTenant(s, "ai-one", sa);
  tenantId = t.id;
  const m = await userInTenant(s, t, "MODELER", sa);
  tok.MODELER = m.token;
  userId = m.id;
  tok.MANAGER = (await userInTenant(s, t, "MANAGER", sa)).token;
  tok.ADMIN = (await userInTenant(s, t, "ADMIN", sa)).token;
  tok.SA = await saTenantToken(s, t);
  key = (await apiKey(s, tok.ADMIN, ["read"])).key;
});
afterAll(async () => {
  await s.close();
  await bare.close();
  ai.stop();
});

const user = (): AiCaller => ({ tenantId, kind: "USER", userId, apiKeyId: null, feature: "ai-validation" });

describe("model catalogue", () => {
  test("a Modeler reads the configured models; the API key is never returned", async () => {
    const r = await s.req("GET", "/api/a/ai/models", { token: tok.MODELER });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).not.toContain("sk-test-secret");
    expect(JSON.parse(text)).toEqual({
      active: true,
      chatModel: "gpt-4o-mini",
      embeddingModel: "fake-embed",
      models: [
        { id: "gpt-4o-mini", kind: "chat", provider: new URL(ai.url).host, contextSize: 128000 },
        { id: "fake-embed", kind: "embedding", provider: new URL(ai.url).host, contextSize: null },
      ],
    });
  });
  test("a Manager and an API key get 403", async () => {
    await expectError(await s.req("GET", "/api/a/ai/models", { token: tok.MANAGER }), 403);
    expect((await s.req("GET", "/api/a/ai/models", { apiKey: key })).status).toBe(403);
  });
  test("with nothing configured the catalogue is empty and `active` false: the defined no-model state", async () => {
    const sa = await saToken(bare);
    const t = await createTenant(bare, "ai-bare", sa);
    const m = (await userInTenant(bare, t, "MODELER", sa)).token;
    expect(await (await bare.req("GET", "/api/a/ai/models", { token: m })).json()).toEqual({
      active: false,
      chatModel: null,
      embeddingModel: null,
      models: [],
    });
    await expect(bare.platform.ports.ai.generate(user(), { prompt: "hi" })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(bare.platform.ports.ai.embed(user(), ["hi"])).rejects.toMatchObject({ code: "CONFLICT" });
  });
});

describe("usage and quotas", () => {
  test("a metered chat call with the tenant quota never configured is refused (402) before reaching the model", async () => {
    const before = ai.calls.length;
    await expect(s.platform.ports.ai.generate(user(), { prompt: "hi" })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
    });
    expect(ai.calls.length).toBe(before);
  });

  test("SA sets the tenant quota; a tenant admin cannot; the call runs and its usage is recorded", async () => {
    await expectError(
      await s.req("PUT", `/api/admin/tenants/${tenantId}/ai-quota`, { token: tok.ADMIN, json: { monthlyTokens: 10 } }),
      403,
    );
    await expectError(
      await s.req("PUT", `/api/admin/tenants/${tenantId}/ai-quota`, {
        token: tok.SA_PLAIN,
        json: { monthlyTokens: -1 },
      }),
      400,
    );
    await expectError(
      await s.req("PUT", "/api/admin/tenants/nope/ai-quota", { token: tok.SA_PLAIN, json: { monthlyTokens: 5 } }),
      404,
    );
    const r = await s.req("PUT", `/api/admin/tenants/${tenantId}/ai-quota`, {
      token: tok.SA_PLAIN,
      json: { monthlyTokens: 1000 },
    });
    expect(await r.json()).toEqual({ tenantId, monthlyTokens: 1000, usedThisMonth: 0 });
    ai.script.push({ content: "The model looks valid." });
    expect(await s.platform.ports.ai.generate(user(), { prompt: "validate this" })).toBe("The model looks valid.");
    const row = s.platform.platformSqlite
      .query<Record<string, unknown>, []>(
        "SELECT tenant_id, actor_kind, user_id, feature, model, input_tokens, output_tokens FROM ai_usage",
      )
      .get();
    expect(row).toMatchObject({
      tenant_id: tenantId,
      actor_kind: "USER",
      user_id: userId,
      feature: "ai-validation",
      model: "gpt-4o-mini",
    });
    expect(Number(row?.input_tokens)).toBeGreaterThan(0);
    expect(Number(row?.output_tokens)).toBeGreaterThan(0);
  });

  test("the per-user ceiling of PUT /admin/users/{id}/ai-quota is honoured (402 once used up)", async () => {
    expect(
      (await s.req("PUT", `/api/admin/users/${userId}/ai-quota`, { token: tok.SA_PLAIN, json: { quota: 1 } })).status,
    ).toBe(200);
    await expect(s.platform.ports.ai.generate(user(), { prompt: "again" })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
      message: expect.stringMatching(/personal/),
    });
    // Another caller of the same tenant is not bound by this user's ceiling.
    const system: AiCaller = { tenantId, kind: "SYSTEM", userId: null, apiKeyId: null, feature: "kb-index" };
    expect((await s.platform.ports.ai.embed(system, ["a"]))[0]).toHaveLength(384);
    await s.req("PUT", `/api/admin/users/${userId}/ai-quota`, { token: tok.SA_PLAIN, json: { quota: null } });
  });

  test("an exhausted tenant quota refuses every caller of the tenant (402)", async () => {
    await s.req("PUT", `/api/admin/tenants/${tenantId}/ai-quota`, { token: tok.SA_PLAIN, json: { monthlyTokens: 1 } });
    await expect(s.platform.ports.ai.generate(user(), { prompt: "x" })).rejects.toMatchObject({
      code: "PAYMENT_REQUIRED",
    });
    const system: AiCaller = { tenantId, kind: "SYSTEM", userId: null, apiKeyId: null, feature: "kb-index" };
    await expect(s.platform.ports.ai.embed(system, ["a"])).rejects.toMatchObject({ code: "PAYMENT_REQUIRED" });
    const q = (await (
      await s.req("GET", `/api/admin/tenants/${tenantId}/ai-quota`, { token: tok.SA_PLAIN })
    ).json()) as { usedThisMonth: number };
    expect(q.usedThisMonth).toBeGreaterThan(1);
  });
});

describe("the local OpenAI-compatible server", () => {
  test("streams scripted answers and tool calls as server-sent events", async () => {
    ai.script.push({ content: "one two", toolCalls: [{ name: "lookup", arguments: { q: "x" } }] });
    const r = await fetch(`${ai.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    const text = await r.text();
    expect(r.headers.get("content-type")).toBe("text/event-stream");
    expect(text).toContain('"content":"one "');
    expect(text).toContain('"name":"lookup"');
    expect(text.trim().endsWith("data: [DONE]")).toBe(true);
  });
});

describe("/admin/rag-config", () => {
  test("SA reads and changes the settings; a tenant admin gets 403; bad values 400; the key never appears", async () => {
    await expectError(await s.req("GET", "/api/admin/rag-config", { token: tok.ADMIN }), 403);
    const r = await s.req("GET", "/api/admin/rag-config", { token: tok.SA_PLAIN });
    const text = await r.text();
    expect(text).not.toContain("sk-test-secret");
    expect(JSON.parse(text)).toMatchObject({
      chunkSize: 1000,
      chunkOverlap: 150,
      topK: 5,
      retrievalMode: "HYBRID",
      embeddingModel: "fake-embed",
    });
    await expectError(
      await s.req("PUT", "/api/admin/rag-config", { token: tok.SA_PLAIN, json: { chunkSize: 300, chunkOverlap: 400 } }),
      400,
    );
    await expectError(await s.req("PUT", "/api/admin/rag-config", { token: tok.SA_PLAIN, json: { topK: 0 } }), 400);
    await expectError(await s.req("PUT", "/api/admin/rag-config", { token: tok.SA_PLAIN, json: { secret: 1 } }), 400);
    await expectError(await s.req("PUT", "/api/admin/rag-config", { token: tok.ADMIN, json: { topK: 3 } }), 403);
    const u = await s.req("PUT", "/api/admin/rag-config", {
      token: tok.SA_PLAIN,
      json: { topK: 8, vectorWeight: 0.5 },
    });
    expect(await u.json()).toMatchObject({ topK: 8, vectorWeight: 0.5, chunkSize: 1000 });
    expect(await (await s.req("GET", "/api/admin/rag-config", { token: tok.SA_PLAIN })).json()).toMatchObject({
      topK: 8,
    });
  });
});
