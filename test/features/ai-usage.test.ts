import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { createAgent } from "../harness/agents";
import { type FakeOpenAi, startFakeOpenAi } from "../harness/openai-server";

// GET /admin/tenants/{id}/ai-usage: this month's tokens and calls of one tenant, by feature and by caller (by name),
// adding up to the quota answer's usedThisMonth; SA only; another tenant's calls never counted.

let s: TestServer;
let ai: FakeOpenAi;
let a: { id: string; slug: string };
let b: { id: string; slug: string };
type Member = Awaited<ReturnType<typeof userInTenant>>;
let modelerA: Member, modelerB: Member, adminA: Member;

type Usage = {
  tenantId: string;
  since: string;
  tokens: number;
  calls: number;
  byFeature: { feature: string; tokens: number; calls: number }[];
  byCaller: {
    actorKind: string;
    userId: string | null;
    user: { id: string; name: string; email: string } | null;
    tokens: number;
    calls: number;
  }[];
};
const usageOf = async (tenantId: string) =>
  (await (await s.req("GET", `/api/admin/tenants/${tenantId}/ai-usage`, { token: await saToken(s) })).json()) as Usage;
const play = (m: Member, key: string) =>
  s.req("POST", `/api/a/agents/${key}/playground`, { token: m.token, json: { inputs: { q: "hello" } } });

beforeAll(async () => {
  ai = startFakeOpenAi();
  s = await startTestServer({ env: { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat" } });
  const sa = await saToken(s);
  a = await createTenant(s, "usage-a", sa);
  b = await createTenant(s, "usage-b", sa);
  modelerA = await userInTenant(s, a, "MODELER", sa);
  adminA = await userInTenant(s, a, "ADMIN", sa);
  modelerB = await userInTenant(s, b, "MODELER", sa);
  await createAgent(s, modelerA.token, { key: "echo", name: "Echo", outputVariables: [{ name: "y", type: "string" }] });
  await createAgent(s, modelerB.token, { key: "echo", name: "Echo", outputVariables: [{ name: "y", type: "string" }] });
});
afterAll(async () => {
  await s.close();
  ai.stop();
});

describe("AI usage of a tenant", () => {
  test("by feature and by caller, named, adding up to the quota's usedThisMonth; the other tenant apart", async () => {
    expect(await usageOf(a.id)).toMatchObject({ tokens: 0, calls: 0, byFeature: [], byCaller: [] });
    for (let i = 0; i < 2; i++) {
      ai.script.push({ content: '{"y": "a"}' });
      expect((await play(modelerA, "echo")).status).toBe(200);
    }
    ai.script.push({ content: '{"y": "b"}' });
    expect((await play(modelerB, "echo")).status).toBe(200);

    const u = await usageOf(a.id);
    expect(u.calls).toBe(2);
    expect(u.tokens).toBeGreaterThan(0);
    expect(u.byFeature.reduce((n, f) => n + f.calls, 0)).toBe(2);
    expect(u.byCaller).toEqual([
      {
        actorKind: "USER",
        userId: modelerA.id,
        user: { id: modelerA.id, name: expect.any(String), email: modelerA.email },
        tokens: u.tokens,
        calls: 2,
      },
    ]);
    const quota = await (await s.req("GET", `/api/admin/tenants/${a.id}/ai-quota`, { token: await saToken(s) })).json();
    expect(quota.usedThisMonth).toBe(u.tokens);
    expect((await usageOf(b.id)).byCaller.map((c) => c.userId)).toEqual([modelerB.id]);
  });

  test("a company's Admin reads its own quota and use (GET /a/ai/usage); a Modeler may not", async () => {
    const own = await (await s.req("GET", "/api/a/ai/usage", { token: adminA.token })).json();
    expect(own).toMatchObject({ tenantId: a.id, monthlyTokens: null, calls: 2 });
    expect(own.byCaller.map((c: { userId: string }) => c.userId)).toEqual([modelerA.id]);
    await expectError(await s.req("GET", "/api/a/ai/usage", { token: modelerA.token }), 403);
  });

  test("a tenant Admin gets 403, an unknown tenant 404", async () => {
    await expectError(await s.req("GET", `/api/admin/tenants/${a.id}/ai-usage`, { token: adminA.token }), 403);
    await expectError(await s.req("GET", "/api/admin/tenants/nope/ai-usage", { token: await saToken(s) }), 404);
  });

  test("a new month starts from zero", async () => {
    s.clock.advance(40 * 24 * 3600_000);
    const u = await usageOf(a.id);
    expect(u).toMatchObject({ tokens: 0, calls: 0, byFeature: [], byCaller: [] });
    expect(Date.parse(u.since)).toBeGreaterThan(Date.now());
  });
});
