import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { agentProcess } from "../harness/agents";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import {
  type Listening,
  MCP_TOOLS_BY_FILE,
  mcpClient,
  okOf,
  refusalOf,
  startListening,
  ToolCalls,
  type ToolResult,
} from "../harness/mcp";
import { type FakeOpenAi, type ScriptedAnswer, startFakeOpenAi } from "../harness/openai-server";
import { deployBpmn } from "../harness/process";

// The AI-side tools (agents, validation, documentation, failures) against a listening service whose model is the
// local OpenAI-compatible server; each tool answers at least one success and one refusal (checked at the end).

const NO_DIAGRAM = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="draft" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="g"/><exclusiveGateway id="g"/>
    <sequenceFlow id="a" sourceRef="g" targetRef="e"><conditionExpression>\${x}</conditionExpression></sequenceFlow>
    <sequenceFlow id="b" sourceRef="g" targetRef="e"/><endEvent id="e"/><userTask id="lonely"/>
  </process>
</definitions>`;

let L: Listening;
let ai: FakeOpenAi;
let acme: { id: string; slug: string };
let admin: { token: string };
let mcp: Client;
let other: Client;
let user: Client;
const calls = new ToolCalls();
const call = (name: string, args: Record<string, unknown> = {}, c = mcp) => calls.call(c, name, args);
/** A call outside this file's tools (set-up and checks through other tools). */
const untracked = async (name: string, args: Record<string, unknown> = {}) =>
  (await mcp.callTool({ name, arguments: args })) as ToolResult;
// Answers per agent: a test agent's instructions start "agent <key>"; other model calls take `ai.script`.
const scripts = new Map<string, ScriptedAnswer[]>();

beforeAll(async () => {
  ai = startFakeOpenAi();
  ai.respond = (body) => {
    const system = (body.messages as { role: string; content: unknown }[]).find((m) => m.role === "system");
    const m = /^agent (\S+)/.exec(String(system?.content ?? ""));
    return m ? scripts.get(m[1])?.shift() : undefined;
  };
  L = await startListening({ AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed" });
  const sa = await saToken(L.s);
  acme = await createTenant(L.s, "acme", sa);
  const beta = await createTenant(L.s, "beta", sa);
  const a = await userInTenant(L.s, acme, "ADMIN", sa);
  admin = a;
  const b = await userInTenant(L.s, beta, "ADMIN", sa);
  const u = await userInTenant(L.s, acme, "USER", sa);
  mcp = await mcpClient(L.url, { email: a.email, password: a.password, tenant: "acme" });
  other = await mcpClient(L.url, { email: b.email, password: b.password, tenant: "beta" });
  user = await mcpClient(L.url, { email: u.email, password: u.password, tenant: "acme" });
  await deployBpmn(L.s, a.token, agentProcess("screen", `pms:agent="screener"`));
  await deployBpmn(L.s, a.token, agentProcess("attached", ""));
  const policy = await L.s.req("PUT", "/api/a/definitions/screen/config", {
    token: a.token,
    json: { mcpPolicy: "START_AND_READ" },
  });
  expect(policy.status).toBe(200);
});
afterAll(async () => {
  for (const c of [mcp, other, user]) await c?.close();
  await L?.close();
  ai?.stop();
});

describe("models and validation", () => {
  test("svc_ai_model_list names the catalogue's chat model; an ordinary user is refused", async () => {
    const m = okOf(await call("svc_ai_model_list"));
    expect(m).toMatchObject({ active: true, chatModel: "fake-chat" });
    expect(m.models).toContainEqual(expect.objectContaining({ id: "fake-chat", kind: "chat" }));
    expect(refusalOf(await call("svc_ai_model_list", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
  });

  test("svc_process_validate reports the findings and the missing diagram, deploys nothing; non-BPMN is refused", async () => {
    const before = okOf(await untracked("svc_process_list")).items;
    const v = okOf(await call("svc_process_validate", { xml: NO_DIAGRAM }));
    expect(v.valid).toBe(true);
    expect(v.processes).toEqual(["draft"]);
    expect(v.findings.map((f: { code: string }) => f.code)).toEqual(
      expect.arrayContaining(["ORPHAN", "MISSING_DIAGRAM"]),
    );
    expect(v.findings.find((f: { code: string }) => f.code === "MISSING_DIAGRAM").severity).toBe("warning");
    expect(okOf(await untracked("svc_process_list")).items).toEqual(before);
    expect(refusalOf(await call("svc_process_validate", { xml: "<not-bpmn" }))).toMatch(/^Malformed BPMN XML/);
    expect(refusalOf(await call("svc_process_validate", { xml: "" }))).toMatch(/xml/);
  });
});

describe("agents", () => {
  const agent = {
    key: "screener",
    name: "Screener",
    modelId: "fake-chat",
    instructions: "agent screener",
    outputVariables: [{ name: "ok", type: "boolean" }],
  };

  test("svc_agent_create writes through the REST service's checks: an unknown model and a taken key are refused", async () => {
    expect(okOf(await call("svc_agent_create", agent))).toMatchObject({ key: "screener", modelId: "fake-chat" });
    expect(refusalOf(await call("svc_agent_create", { ...agent, key: "x2", modelId: "gpt-nope" }))).toMatch(
      /modelId is not a chat model of the catalogue/,
    );
    expect(refusalOf(await call("svc_agent_create", agent))).toMatch(/Agent screener already exists/);
    expect(refusalOf(await call("svc_agent_create", { ...agent, key: "1bad" }))).toMatch(/key/);
    const rest = await L.s.req("GET", "/api/a/agents/screener", { token: admin.token });
    expect(rest.status).toBe(200);
  });

  test("svc_agent_list lists the tenant's agents, not another tenant's; an ordinary user is refused", async () => {
    expect(okOf(await call("svc_agent_list")).items.map((a: { key: string }) => a.key)).toEqual(["screener"]);
    expect(okOf(await call("svc_agent_list", {}, other)).items).toEqual([]);
    expect(refusalOf(await call("svc_agent_list", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
  });

  test("svc_agent_attach_to_step makes a plain service task run the agent; an unknown or foreign agent is not found", async () => {
    const at = okOf(
      await call("svc_agent_attach_to_step", { key: "screener", processKey: "attached", activityId: "step" }),
    );
    expect(at).toMatchObject({ agentKey: "screener", processKey: "attached", activityId: "step" });
    const listed = await L.s.req("GET", "/api/a/agents/screener/attachments", { token: admin.token });
    expect(await listed.json()).toEqual([expect.objectContaining({ processKey: "attached", activityId: "step" })]);
    scripts.set("screener", [{ content: '{"ok": true}' }]);
    const started = await L.s.req("POST", "/api/a/instances", {
      token: admin.token,
      json: { definitionKey: "attached" },
    });
    expect(started.status).toBe(201);
    const inst = (await started.json()) as { activeTasks: { activityId: string }[] };
    expect(inst.activeTasks.map((t) => t.activityId)).toEqual(["after"]);
    expect(
      refusalOf(await call("svc_agent_attach_to_step", { key: "ghost", processKey: "attached", activityId: "step" })),
    ).toMatch(/not found/i);
    expect(
      refusalOf(
        await call("svc_agent_attach_to_step", { key: "screener", processKey: "attached", activityId: "step" }, other),
      ),
    ).toMatch(/not found/i);
  });

  test("svc_agent_suggest_knowledge ranks the tenant's bases by the step's text; blank text is refused", async () => {
    const claims = okOf(
      await untracked("svc_kb_create", {
        name: "Vehicle claims handbook",
        description: "How vehicle damage claims are assessed",
      }),
    );
    okOf(await untracked("svc_kb_create", { name: "Holiday calendar" }));
    const s = okOf(await call("svc_agent_suggest_knowledge", { text: "Assess the vehicle damage of the claim" }));
    expect(s.items.map((x: { id: string }) => x.id)).toEqual([claims.id]);
    expect(okOf(await call("svc_agent_suggest_knowledge", { text: "vehicle claims" }, other)).items).toEqual([]);
    expect(refusalOf(await call("svc_agent_suggest_knowledge", { text: "" }))).toMatch(/text/);
  });
});

describe("process documentation", () => {
  test("svc_process_doc_get reads what a Manager saved over REST; an unknown or foreign key is not found", async () => {
    expect(okOf(await call("svc_process_doc_get", { key: "screen" }))).toMatchObject({ description: null });
    const put = await L.s.req("PUT", "/api/a/definitions/screen/documentation", {
      token: admin.token,
      json: { description: "Screens each request." },
    });
    expect(put.status).toBe(200);
    expect(okOf(await call("svc_process_doc_get", { key: "screen" }))).toMatchObject({
      key: "screen",
      description: "Screens each request.",
    });
    expect(refusalOf(await call("svc_process_doc_get", { key: "nope" }))).toMatch(/not found/i);
    expect(refusalOf(await call("svc_process_doc_get", { key: "screen" }, other))).toMatch(/not found/i);
  });

  test("svc_process_doc_propose: refused before the tenant quota exists; then proposes and writes nothing", async () => {
    const calls0 = ai.calls.length;
    expect(refusalOf(await call("svc_process_doc_propose", { key: "screen" }))).toMatch(/quota was never configured/);
    expect(ai.calls.length).toBe(calls0);
    const sa = await saToken(L.s);
    const q = await L.s.req("PUT", `/api/admin/tenants/${acme.id}/ai-quota`, {
      token: sa,
      json: { monthlyTokens: 1_000_000 },
    });
    expect(q.status).toBe(200);
    ai.script.push({ content: JSON.stringify({ description: "An AI step screens the request, then a person acts." }) });
    const p = okOf(await call("svc_process_doc_propose", { key: "screen" }));
    expect(p).toMatchObject({
      key: "screen",
      description: "An AI step screens the request, then a person acts.",
      current: "Screens each request.",
      source: "deployed",
    });
    expect(JSON.stringify(ai.calls.at(-1)?.body.messages)).toContain("AI step");
    expect(okOf(await call("svc_process_doc_get", { key: "screen" })).description).toBe("Screens each request.");
    expect(refusalOf(await call("svc_process_doc_propose", { key: "nope" }))).toMatch(/not found/i);
  });
});

describe("AI failures", () => {
  test("svc_run_why_failed answers the failure of an agent step started over MCP; another tenant sees none", async () => {
    scripts.set("screener", [{ status: 503 }]);
    const start = await untracked("svc_run_start", { definitionKey: "screen", businessKey: "bk-1" });
    expect(refusalOf(start)).toMatch(/MODEL_UNAVAILABLE/);
    const f = okOf(await call("svc_run_why_failed", { businessKey: "bk-1" }));
    expect(f.items).toEqual([
      expect.objectContaining({
        processKey: "screen",
        businessKey: "bk-1",
        activity: "step",
        agentKey: "screener",
        failureType: "MODEL_UNAVAILABLE",
        attemptCount: 1,
      }),
    ]);
    expect(okOf(await call("svc_run_why_failed", { businessKey: "bk-1" }, other)).items).toEqual([]);
    expect(okOf(await call("svc_run_why_failed", { businessKey: "bk-none" })).items).toEqual([]);
    expect(refusalOf(await call("svc_run_why_failed", { businessKey: "" }))).toMatch(/businessKey/);
  });
});

test("each tool of this file answered a success and a refusal", () => {
  expect(calls.missing(MCP_TOOLS_BY_FILE["mcp-ai-tools.test.ts"])).toEqual([]);
});
