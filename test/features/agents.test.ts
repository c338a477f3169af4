import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, saToken, userInTenant } from "../harness/fixtures";
import { startFakeOpenAi, type FakeOpenAi, type ScriptedAnswer } from "../harness/openai-server";
import { deployBpmn, startProcess } from "../harness/process";
import { agentProcess, createAgent } from "../harness/agents";

let ai: FakeOpenAi;
let s: TestServer;
let bare: TestServer;
const tok: Record<string, string> = {};
let tenantId = "";
let otherTenantId = "";
let modelerId = "";
let key = "";

/** Answers by agent: each agent's instructions name it, so concurrent runs get their own script. */
const scripts = new Map<string, ScriptedAnswer[]>();
const scriptFor = (agent: string, ...answers: ScriptedAnswer[]) => scripts.set(agent, answers);
const systemOf = (body: Record<string, unknown>) =>
  String((body.messages as { role: string; content: unknown }[]).find((m) => m.role === "system")?.content ?? "");

beforeAll(async () => {
  ai = startFakeOpenAi();
  ai.respond = (body) => {
    const m = /^agent (\S+)/.exec(systemOf(body));
    return m ? scripts.get(m[1])?.shift() : undefined;
  };
  s = await startTestServer({ env: { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed" } });
  bare = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "agents-one", sa);
  tenantId = t.id;
  const m = await userInTenant(s, t, "MODELER", sa);
  tok.MODELER = m.token;
  modelerId = m.id;
  tok.USER = (await userInTenant(s, t, "USER", sa)).token;
  tok.MANAGER = (await userInTenant(s, t, "MANAGER", sa)).token;
  tok.ADMIN = (await userInTenant(s, t, "ADMIN", sa)).token;
  tok.SA = await saTenantToken(s, t);
  key = (await apiKey(s, tok.ADMIN, ["read", "write"])).key;
  const other = await createTenant(s, "agents-two", sa);
  otherTenantId = other.id;
  tok.OTHER = (await userInTenant(s, other, "MODELER", sa)).token;
});
afterAll(async () => {
  await s.close();
  await bare.close();
  ai.stop();
});

const failures = async (token: string, q = "") =>
  (await (await s.req("GET", `/api/a/ai-task-failures${q}`, { token })).json()) as {
    content: Record<string, unknown>[];
    totalElements: number;
    size: number;
  };
const aiFailedCount = async (token: string) => {
  const n = (await (await s.req("GET", "/api/a/notifications?size=100", { token })).json()) as
    | { type: string }[]
    | { content: { type: string }[] };
  return (Array.isArray(n) ? n : n.content).filter((x) => x.type === "AI_TASK_FAILED").length;
};
const varsOf = async (id: string) =>
  (await (await s.req("GET", `/api/a/history/instances/${id}`, { token: tok.ADMIN })).json()) as unknown;

describe("agents as platform data", () => {
  test("a Modeler creates, reads, lists, updates and deletes an agent; cmsClearance defaults to PUBLIC", async () => {
    const c = await s.req("POST", "/api/a/agents", {
      token: tok.MODELER,
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
      (await (await s.req("GET", "/api/a/agents", { token: tok.MODELER })).json()).map((a: { key: string }) => a.key),
    ).toContain("crud");
    const u = await s.req("PUT", "/api/a/agents/crud", {
      token: tok.MODELER,
      json: { name: "Crud 2", modelId: "fake-chat", instructions: "y", cmsClearance: "SECRET" },
    });
    expect(await u.json()).toMatchObject({ name: "Crud 2", cmsClearance: "SECRET" });
    await expectError(
      await s.req("POST", "/api/a/agents", {
        token: tok.MODELER,
        json: { key: "crud", name: "again", modelId: "fake-chat", instructions: "x" },
      }),
      409,
    );
    expect((await s.req("DELETE", "/api/a/agents/crud", { token: tok.MODELER })).status).toBe(204);
    await expectError(await s.req("GET", "/api/a/agents/crud", { token: tok.MODELER }), 404);
  });

  test("USER, MANAGER and API keys are refused; a global agent is SUPER_ADMIN's alone", async () => {
    const body = { key: "g1", name: "G", modelId: "fake-chat", instructions: "x" };
    await expectError(await s.req("GET", "/api/a/agents", { token: tok.USER }), 403);
    await expectError(await s.req("POST", "/api/a/agents", { token: tok.MANAGER, json: body }), 403);
    expect((await s.req("GET", "/api/a/agents", { apiKey: key })).status).toBe(403);
    await expectError(
      await s.req("POST", "/api/a/agents", { token: tok.MODELER, json: { ...body, isGlobal: true } }),
      403,
    );
    expect((await s.req("POST", "/api/a/agents", { token: tok.SA, json: { ...body, isGlobal: true } })).status).toBe(
      201,
    );
    // every tenant sees it; no Modeler may change or delete it
    expect((await s.req("GET", "/api/a/agents/g1", { token: tok.OTHER })).status).toBe(200);
    await expectError(await s.req("DELETE", "/api/a/agents/g1", { token: tok.MODELER }), 403);
  });

  test("malformed bodies answer 400 with field errors; an unknown model or knowledge base is refused", async () => {
    await expectError(
      await s.req("POST", "/api/a/agents", { token: tok.MODELER, json: { key: "1bad", name: "" } }),
      400,
    );
    await expectError(
      await s.req("POST", "/api/a/agents", {
        token: tok.MODELER,
        json: { key: "m", name: "M", modelId: "gpt-9", instructions: "x" },
      }),
      400,
      /modelId/,
    );
    await expectError(
      await s.req("POST", "/api/a/agents", {
        token: tok.MODELER,
        json: { key: "m", name: "M", modelId: "fake-chat", instructions: "x", knowledgeBaseIds: ["nope"] },
      }),
      400,
      /knowledgeBaseIds/,
    );
    await expectError(
      await s.req("POST", "/api/a/agents", {
        token: tok.MODELER,
        json: { key: "m", name: "M", modelId: "fake-chat", instructions: "x", tools: ["rm_rf"] },
      }),
      400,
    );
  });

  test("with no active model creating an agent answers 409", async () => {
    const sa = await saToken(bare);
    const t = await createTenant(bare, "agents-bare", sa);
    const m = (await userInTenant(bare, t, "MODELER", sa)).token;
    await expectError(
      await bare.req("POST", "/api/a/agents", {
        token: m,
        json: { key: "x", name: "X", modelId: "fake-chat", instructions: "x" },
      }),
      409,
    );
  });

  test("another tenant's agent answers 404; delete is refused while the agent is attached to a step", async () => {
    await createAgent(s, tok.MODELER, { key: "mine", name: "Mine" });
    await expectError(await s.req("GET", "/api/a/agents/mine", { token: tok.OTHER }), 404);
    await expectError(
      await s.req("PUT", "/api/a/agents/mine/attachments", {
        token: tok.OTHER,
        json: { processKey: "p", activityId: "a" },
      }),
      404,
    );
    const a = await s.req("PUT", "/api/a/agents/mine/attachments", {
      token: tok.MODELER,
      json: { processKey: "p", activityId: "a" },
    });
    expect(await a.json()).toMatchObject({ processKey: "p", activityId: "a", agentKey: "mine" });
    await expectError(await s.req("DELETE", "/api/a/agents/mine", { token: tok.MODELER }), 409, /attached/);
    expect(
      (await s.req("DELETE", "/api/a/agents/mine/attachments?processKey=p&activityId=a", { token: tok.MODELER }))
        .status,
    ).toBe(204);
    expect((await s.req("DELETE", "/api/a/agents/mine", { token: tok.MODELER })).status).toBe(204);
  });

  test("knowledge suggestions rank the bases whose name and description match the step", async () => {
    for (const [name, description] of [
      ["Invoice rules", "how supplier invoices are checked and approved"],
      ["Holidays", "leave policy"],
    ])
      await s.req("POST", "/api/a/knowledge-bases", { token: tok.MODELER, json: { name, description } });
    const r = await s.req("POST", "/api/a/agents/knowledge-suggestions", {
      token: tok.MODELER,
      json: { text: "check the supplier invoice" },
    });
    const list = (await r.json()) as { name: string }[];
    expect(list.map((b) => b.name)).toEqual(["Invoice rules"]);
  });
});

describe("agent steps in processes", () => {
  test("an agent step after a task reads the uploaded document and writes the extracted fields as variables", async () => {
    await createAgent(s, tok.MODELER, {
      key: "extractor",
      name: "Extractor",
      tools: ["read_attachments", "set_output"],
      outputVariables: [
        { name: "invoiceNumber", type: "string" },
        { name: "amount", type: "number" },
      ],
    });
    await deployBpmn(s, tok.MODELER, agentProcess("extract", `pms:agent="extractor"`, { taskFirst: true }));
    const started = await startProcess(s, tok.MODELER, { definitionKey: "extract", businessKey: "doc-1" });
    const f = new FormData();
    f.append("file", new File(["Invoice INV-42, total due 1250.50 EUR"], "invoice.txt", { type: "text/plain" }));
    f.append("entityType", "PROCESS_INSTANCE");
    f.append("entityId", started.id);
    expect((await s.req("POST", "/api/a/attachments", { token: tok.ADMIN, body: f })).status).toBe(201);
    scriptFor(
      "extractor",
      { toolCalls: [{ name: "read_attachments", arguments: {} }] },
      { toolCalls: [{ name: "set_output", arguments: { name: "invoiceNumber", value: "INV-42" } }] },
      { content: '{"amount": "1250.50"}' },
    );
    const task = (await (await s.req("GET", `/api/a/tasks?instanceId=${started.id}`, { token: tok.ADMIN })).json()) as {
      content: { id: string }[];
    };
    const done = await s.req("POST", `/api/a/tasks/${task.content[0].id}/complete`, { token: tok.ADMIN, json: {} });
    expect(done.status).toBeLessThan(300);
    // the completion does not wait on the model: the step is an async job
    await s.platform.processRuntime.runDueJobs();
    const vars = await varsOf(started.id);
    expect(JSON.stringify(vars)).toContain("INV-42");
    expect(JSON.stringify(vars)).toContain("1250.5");
    // the document's text reached the model through the tool
    expect(JSON.stringify(ai.calls.at(-1)?.body)).toContain("total due 1250.50");
    const calls = (await (
      await s.req("GET", `/api/a/history/instances/${started.id}/agent-calls`, { token: tok.MODELER })
    ).json()) as {
      tool: string;
      outcome: string;
      activity: string;
      argsDigest: string;
    }[];
    expect(calls.map((c) => [c.tool, c.outcome, c.activity])).toEqual([
      ["read_attachments", "OK", "step"],
      ["set_output", "OK", "step"],
    ]);
    expect(calls[0].argsDigest).toMatch(/^[0-9a-f]{64}$/);
    await expectError(
      await s.req("GET", `/api/a/history/instances/${started.id}/agent-calls`, { token: tok.OTHER }),
      404,
    );
  });

  test("a failing agent at the start leaves no instance, one failure row and one notification; a second failure counts", async () => {
    await createAgent(s, tok.MODELER, {
      key: "screener",
      name: "Screener",
      outputVariables: [{ name: "ok", type: "boolean" }],
    });
    await deployBpmn(s, tok.MODELER, agentProcess("screen", `flowable:type="agent" pms:agent="screener"`));
    scriptFor("screener", { status: 503 });
    const r = await s.req("POST", "/api/a/instances", {
      token: tok.MODELER,
      json: { definitionKey: "screen", businessKey: "bk-fail" },
    });
    await expectError(r, 422, /MODEL_UNAVAILABLE/);
    const list = (await (await s.req("GET", "/api/a/instances?size=100", { token: tok.ADMIN })).json()) as {
      content: { definitionKey: string }[];
    };
    expect(list.content.filter((i) => i.definitionKey === "screen")).toEqual([]);
    const page = await failures(tok.USER, "?businessKey=bk-fail");
    expect(page.size).toBe(20);
    expect(page.content).toHaveLength(1);
    expect(page.content[0]).toMatchObject({
      engine: "BPMN",
      processKey: "screen",
      businessKey: "bk-fail",
      activity: "step",
      failureType: "MODEL_UNAVAILABLE",
      attemptCount: 1,
    });
    expect(await aiFailedCount(tok.MODELER)).toBe(1);
    // submitting again: the same step fails again
    scriptFor("screener", { content: "no JSON here" });
    await expectError(
      await s.req("POST", "/api/a/instances", {
        token: tok.MODELER,
        json: { definitionKey: "screen", businessKey: "bk-fail" },
      }),
      422,
      /INVALID_OUTPUT/,
    );
    const again = await failures(tok.USER, "?businessKey=bk-fail");
    expect(again.content).toHaveLength(1);
    expect(again.content[0]).toMatchObject({ attemptCount: 2, failureType: "INVALID_OUTPUT" });
    expect(await aiFailedCount(tok.MODELER)).toBe(1);
    // another tenant sees none of it
    expect((await failures(tok.OTHER, "?businessKey=bk-fail")).content).toEqual([]);
  });

  test("a start by API key writes the failure row and notifies nobody; a succeeding start keeps its variables", async () => {
    scriptFor("screener", { status: 500 });
    const r = await s.req("POST", "/api/a/instances", {
      apiKey: key,
      json: { definitionKey: "screen", businessKey: "bk-key" },
    });
    expect(r.status).toBe(422);
    expect((await failures(tok.ADMIN, "?businessKey=bk-key")).content[0]).toMatchObject({ attemptCount: 1 });
    expect(await aiFailedCount(tok.MODELER)).toBe(1);
    expect(await aiFailedCount(tok.ADMIN)).toBe(0);
    scriptFor("screener", { content: '{"ok": true}' });
    const ok = await startProcess(s, tok.ADMIN, { definitionKey: "screen", businessKey: "bk-ok" });
    expect(ok.activeTasks.map((t) => t.activityId)).toEqual(["after"]);
  });

  test("an attachment row makes a plain service task an agent step", async () => {
    await createAgent(s, tok.MODELER, {
      key: "tagger",
      name: "Tagger",
      outputVariables: [{ name: "tag", type: "string" }],
    });
    await deployBpmn(s, tok.MODELER, agentProcess("attached", ""));
    await s.req("PUT", "/api/a/agents/tagger/attachments", {
      token: tok.MODELER,
      json: { processKey: "attached", activityId: "step" },
    });
    scriptFor("tagger", { content: '{"tag": "urgent"}' });
    const st = await startProcess(s, tok.MODELER, { definitionKey: "attached" });
    const vars = JSON.stringify(await varsOf(st.id));
    expect(vars).toContain("urgent");
  });

  test("an agent at PUBLIC cannot read a SECRET collection; the refusal is recorded and told to the model", async () => {
    const col = await s.req("POST", "/api/a/cms/collections", {
      token: tok.ADMIN,
      json: { name: "salaries", confidentiality: "SECRET", fields: [{ name: "who", type: "text" }] },
    });
    expect(col.status).toBe(201);
    await createAgent(s, tok.MODELER, {
      key: "snoop",
      name: "Snoop",
      tools: ["cms_query"],
      outputVariables: [{ name: "n", type: "number" }],
    });
    await deployBpmn(s, tok.MODELER, agentProcess("snoopy", `pms:agent="snoop"`));
    scriptFor(
      "snoop",
      { toolCalls: [{ name: "cms_query", arguments: { collection: "salaries" } }] },
      { content: '{"n": 0}' },
    );
    const st = await startProcess(s, tok.MODELER, { definitionKey: "snoopy" });
    const calls = (await (
      await s.req("GET", `/api/a/history/instances/${st.id}/agent-calls`, { token: tok.MODELER })
    ).json()) as { outcome: string; detail: string }[];
    expect(calls).toMatchObject([{ outcome: "REFUSED" }]);
    expect(calls[0].detail).toMatch(/SECRET/);
  });

  test("an agent declaring another tenant is refused: the step fails with TOOL_REFUSED", async () => {
    await createAgent(s, tok.MODELER, {
      key: "rogue",
      name: "Rogue",
      tools: ["read_variables"],
      outputVariables: [{ name: "x", type: "string" }],
    });
    await deployBpmn(s, tok.MODELER, agentProcess("roguep", `pms:agent="rogue"`));
    scriptFor(
      "rogue",
      { toolCalls: [{ name: "read_variables", arguments: { tenantId: otherTenantId } }] },
      { content: '{"x": "stolen"}' },
    );
    await expectError(
      await s.req("POST", "/api/a/instances", {
        token: tok.MODELER,
        json: { definitionKey: "roguep", businessKey: "bk-rogue" },
      }),
      422,
      /TOOL_REFUSED/,
    );
    expect((await failures(tok.MODELER, "?businessKey=bk-rogue")).content[0]).toMatchObject({
      failureType: "TOOL_REFUSED",
    });
  });

  test("the playground runs an agent on inputs with the lower of the user's and the agent's clearance", async () => {
    await createAgent(s, tok.MODELER, {
      key: "play",
      name: "Play",
      cmsClearance: "TOP_SECRET",
      tools: ["cms_query"],
      outputVariables: [{ name: "y", type: "string" }],
    });
    scriptFor(
      "play",
      { toolCalls: [{ name: "cms_query", arguments: { collection: "salaries" } }] },
      { content: '{"y": "hello"}' },
    );
    const r = await s.req("POST", "/api/a/agents/play/playground", { token: tok.MODELER, json: { inputs: { q: 1 } } });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { outputs: unknown; clearance: string; toolCalls: { outcome: string }[] };
    expect(body).toMatchObject({ outputs: { y: "hello" }, clearance: "PUBLIC", toolCalls: [{ outcome: "REFUSED" }] });
    await expectError(
      await s.req("POST", "/api/a/agents/play/playground", { token: tok.USER, json: { inputs: {} } }),
      403,
    );
    await expectError(
      await s.req("POST", "/api/a/agents/play/playground", { token: tok.OTHER, json: { inputs: {} } }),
      404,
    );
  });

  test("a slow model does not block another tenant's writes", async () => {
    await createAgent(s, tok.MODELER, { key: "slow", name: "Slow", outputVariables: [{ name: "z", type: "string" }] });
    await deployBpmn(s, tok.MODELER, agentProcess("slowp", `pms:agent="slow"`));
    scriptFor("slow", { content: '{"z": "late"}', delayMs: 1500 });
    const slowStart = s.req("POST", "/api/a/instances", { token: tok.MODELER, json: { definitionKey: "slowp" } });
    await Bun.sleep(100);
    const t0 = performance.now();
    const w = await s.req("POST", "/api/a/agents", {
      token: tok.OTHER,
      json: { key: "quick", name: "Q", modelId: "fake-chat", instructions: "x" },
    });
    await deployBpmn(s, tok.OTHER, agentProcess("plain", `flowable:expression="\${1}"`));
    await startProcess(s, tok.OTHER, { definitionKey: "plain" });
    const took = performance.now() - t0;
    expect(w.status).toBe(201);
    expect(took).toBeLessThan(1000);
    expect((await slowStart).status).toBe(201);
  });
});
