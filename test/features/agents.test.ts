import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { type AgentWorld, agentProcess, createAgent, startAgentWorld } from "../harness/agents";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld({ withBare: true });
});
afterAll(() => w.stop());

describe("agents as platform data", () => {
  test("a Modeler creates, reads, lists, updates and deletes an agent; cmsClearance defaults to PUBLIC", async () => {
    const c = await w.s.req("POST", "/api/a/agents", {
      token: w.tok.MODELER,
      json: {
        key: "crud",
        name: "Crud",
        modelId: "fake-chat",
        instructions: "x",
        outputVariables: [{ name: "a", type: "string" }],
      },
    });
    expect(c.status).toBe(201);
    expect(await c.json()).toMatchObject({
      key: "crud",
      cmsClearance: "PUBLIC",
      isGlobal: false,
      tools: [],
      limits: { maxToolSteps: 8 },
    });
    expect(
      (await (await w.s.req("GET", "/api/a/agents", { token: w.tok.MODELER })).json()).map(
        (a: { key: string }) => a.key,
      ),
    ).toContain("crud");
    const u = await w.s.req("PUT", "/api/a/agents/crud", {
      token: w.tok.MODELER,
      json: { name: "Crud 2", modelId: "fake-chat", instructions: "y", cmsClearance: "PUBLIC" },
    });
    expect(await u.json()).toMatchObject({ name: "Crud 2", cmsClearance: "PUBLIC" });
    await expectError(
      await w.s.req("POST", "/api/a/agents", {
        token: w.tok.MODELER,
        json: { key: "crud", name: "again", modelId: "fake-chat", instructions: "x" },
      }),
      409,
    );
    expect((await w.s.req("DELETE", "/api/a/agents/crud", { token: w.tok.MODELER })).status).toBe(204);
    await expectError(await w.s.req("GET", "/api/a/agents/crud", { token: w.tok.MODELER }), 404);
  });

  test("USER, MANAGER and API keys are refused; a global agent is SUPER_ADMIN's alone", async () => {
    const body = { key: "g1", name: "G", modelId: "fake-chat", instructions: "x" };
    await expectError(await w.s.req("GET", "/api/a/agents", { token: w.tok.USER }), 403);
    await expectError(await w.s.req("POST", "/api/a/agents", { token: w.tok.MANAGER, json: body }), 403);
    expect((await w.s.req("GET", "/api/a/agents", { apiKey: w.key })).status).toBe(403);
    await expectError(
      await w.s.req("POST", "/api/a/agents", { token: w.tok.MODELER, json: { ...body, isGlobal: true } }),
      403,
    );
    expect(
      (await w.s.req("POST", "/api/a/agents", { token: w.tok.SA, json: { ...body, isGlobal: true } })).status,
    ).toBe(201);
    // every tenant sees it; no Modeler may change or delete it
    expect((await w.s.req("GET", "/api/a/agents/g1", { token: w.tok.OTHER })).status).toBe(200);
    await expectError(await w.s.req("DELETE", "/api/a/agents/g1", { token: w.tok.MODELER }), 403);
  });

  test("malformed bodies answer 400 with field errors; an unknown model or knowledge base is refused", async () => {
    await expectError(
      await w.s.req("POST", "/api/a/agents", { token: w.tok.MODELER, json: { key: "1bad", name: "" } }),
      400,
    );
    await expectError(
      await w.s.req("POST", "/api/a/agents", {
        token: w.tok.MODELER,
        json: { key: "m", name: "M", modelId: "gpt-9", instructions: "x" },
      }),
      400,
      /modelId/,
    );
    await expectError(
      await w.s.req("POST", "/api/a/agents", {
        token: w.tok.MODELER,
        json: { key: "m", name: "M", modelId: "fake-chat", instructions: "x", knowledgeBaseIds: ["nope"] },
      }),
      400,
      /knowledgeBaseIds/,
    );
    await expectError(
      await w.s.req("POST", "/api/a/agents", {
        token: w.tok.MODELER,
        json: { key: "m", name: "M", modelId: "fake-chat", instructions: "x", tools: ["rm_rf"] },
      }),
      400,
    );
  });

  test("with no active model creating an agent answers 409", async () => {
    const sa = await saToken(w.bare);
    const t = await createTenant(w.bare, "agents-bare", sa);
    const m = (await userInTenant(w.bare, t, "MODELER", sa)).token;
    await expectError(
      await w.bare.req("POST", "/api/a/agents", {
        token: m,
        json: { key: "x", name: "X", modelId: "fake-chat", instructions: "x" },
      }),
      409,
    );
  });

  test("another tenant's agent answers 404; delete is refused while the agent is attached to a step", async () => {
    await createAgent(w.s, w.tok.MODELER, { key: "mine", name: "Mine" });
    await expectError(await w.s.req("GET", "/api/a/agents/mine", { token: w.tok.OTHER }), 404);
    await expectError(
      await w.s.req("PUT", "/api/a/agents/mine/attachments", {
        token: w.tok.OTHER,
        json: { processKey: "p", activityId: "a" },
      }),
      404,
    );
    const a = await w.s.req("PUT", "/api/a/agents/mine/attachments", {
      token: w.tok.MODELER,
      json: { processKey: "p", activityId: "a" },
    });
    expect(await a.json()).toMatchObject({ processKey: "p", activityId: "a", agentKey: "mine" });
    await expectError(await w.s.req("DELETE", "/api/a/agents/mine", { token: w.tok.MODELER }), 409, /attached/);
    expect(
      (await w.s.req("DELETE", "/api/a/agents/mine/attachments?processKey=p&activityId=a", { token: w.tok.MODELER }))
        .status,
    ).toBe(204);
    expect((await w.s.req("DELETE", "/api/a/agents/mine", { token: w.tok.MODELER })).status).toBe(204);
  });

  test("knowledge suggestions rank the bases whose name and description match the step", async () => {
    for (const [name, description] of [
      ["Invoice rules", "how supplier invoices are checked and approved"],
      ["Holidays", "leave policy"],
    ])
      await w.s.req("POST", "/api/a/knowledge-bases", { token: w.tok.MODELER, json: { name, description } });
    const r = await w.s.req("POST", "/api/a/agents/knowledge-suggestions", {
      token: w.tok.MODELER,
      json: { text: "check the supplier invoice" },
    });
    const list = (await r.json()) as { name: string }[];
    expect(list.map((b) => b.name)).toEqual(["Invoice rules"]);
  });
});
