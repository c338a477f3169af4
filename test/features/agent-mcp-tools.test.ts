import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, saToken } from "../harness/fixtures";
import { startProcess, deployBpmn } from "../harness/process";
import { type AgentWorld, agentProcess, createAgent, startAgentWorld } from "../harness/agents";
import { type RemoteMcp, startRemoteMcp } from "../harness/mcp-remote-server";

// Agents calling the tools of a registered remote MCP server: through the HTTP API, a real MCP server on 127.0.0.1
// (the SDK's McpServer) and the scripted OpenAI-compatible server.
let w: AgentWorld;
let remote: RemoteMcp;
let sa: string;
const SECRET = "Bearer remote-token-42";

type Call = { tool: string; outcome: string; detail: string | null };

beforeAll(async () => {
  w = await startAgentWorld({ env: { MCP_SERVERS_ALLOW_PRIVATE: "127.0.0.1", MCP_TOOL_TIMEOUT_MS: "3000" } });
  remote = startRemoteMcp();
  sa = await saToken(w.s);
  const r = await w.s.req("POST", "/api/admin/mcp-servers", {
    token: sa,
    json: {
      name: "orders",
      url: remote.url,
      authHeader: { name: "Authorization", value: SECRET },
      allowedTenants: [w.tenantId],
    },
  });
  expect(r.status).toBe(201);
});
afterAll(async () => {
  remote.stop();
  await w.stop();
});

/** The names of the tools the model was offered in its last request. */
const offered = () =>
  ((w.ai.calls.at(-1)?.body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();

async function playground(key: string): Promise<{ outputs: Record<string, unknown>; toolCalls: Call[] }> {
  const r = await w.s.req("POST", `/api/a/agents/${key}/playground`, { token: w.tok.MODELER, json: { inputs: {} } });
  expect(r.status).toBe(200);
  return (await r.json()) as never;
}

describe("agents calling MCP tools", () => {
  test("an agent service task calls an MCP tool with the sealed header and uses its result in its outputs", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "refunds",
      name: "Refunds",
      tools: ["set_output"],
      mcpServers: [{ server: "orders", tools: ["lookup_order"] }],
      outputVariables: [{ name: "status", type: "string" }],
    });
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("refund", `pms:agent="refunds"`));
    w.scriptFor(
      "refunds",
      { toolCalls: [{ name: "mcp_orders_lookup_order", arguments: { orderId: "A-7" } }] },
      { content: '{"status": "delivered"}' },
    );
    const started = await startProcess(w.s, w.tok.MODELER, { definitionKey: "refund", businessKey: "r-1" });
    // the model was offered the allowed tool only (delete_everything is not in the agent's list), namespaced
    expect(offered()).toEqual(["mcp_orders_lookup_order", "set_output"]);
    // the server got the call with the header the SUPER_ADMIN registered
    expect(remote.calls).toEqual([{ tool: "lookup_order", args: { orderId: "A-7" } }]);
    expect(remote.requests.some((h) => h.authorization === SECRET)).toBe(true);
    // its text and structured content went back to the model as the tool's result
    const last = JSON.stringify(w.ai.calls.at(-1)?.body.messages);
    expect(last).toContain("Order A-7 was delivered");
    expect(last).toContain("refundable");
    expect(JSON.stringify(await w.varsOf(started.id))).toContain('"delivered"');
    const calls = (await (
      await w.s.req("GET", `/api/a/history/instances/${started.id}/agent-calls`, { token: w.tok.MODELER })
    ).json()) as (Call & { activity: string; argsDigest: string })[];
    expect(calls.map((c) => [c.tool, c.outcome, c.activity])).toEqual([["mcp_orders_lookup_order", "OK", "step"]]);
    expect(calls[0].argsDigest).toMatch(/^[0-9a-f]{64}$/);
  });

  test("a tool the agent's list leaves out is not offered, and a call to it is not made", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "careful",
      name: "Careful",
      mcpServers: [{ server: "orders", tools: ["lookup_order"] }],
      outputVariables: [{ name: "done", type: "boolean" }],
    });
    const before = remote.calls.length;
    w.scriptFor(
      "careful",
      { toolCalls: [{ name: "mcp_orders_delete_everything", arguments: {} }] },
      { content: '{"done": true}' },
    );
    const out = await playground("careful");
    expect(out.outputs).toEqual({ done: true });
    expect(offered()).toEqual(["mcp_orders_lookup_order"]);
    expect(remote.calls.slice(before).map((c) => c.tool)).not.toContain("delete_everything");
  });

  test("with no tool list the agent gets every tool of the server", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "all-tools",
      name: "All",
      mcpServers: [{ server: "orders" }],
      outputVariables: [{ name: "done", type: "boolean" }],
    });
    w.scriptFor("all-tools", { content: '{"done": true}' });
    await playground("all-tools");
    expect(offered()).toEqual([
      "mcp_orders_big_text",
      "mcp_orders_broken",
      "mcp_orders_delete_everything",
      "mcp_orders_lookup_order",
      "mcp_orders_slow",
    ]);
  });

  test("a server no longer allowed for the tenant is not offered; the audit says why and the agent goes on", async () => {
    const other = await w.s.req("POST", "/api/admin/mcp-servers", {
      token: sa,
      json: { name: "shared", url: remote.url, allowedTenants: [w.tenantId] },
    });
    const id = ((await other.json()) as { id: string }).id;
    await createAgent(w.s, w.tok.MODELER, {
      key: "shared-user",
      name: "Shared",
      mcpServers: [{ server: "shared" }],
      outputVariables: [{ name: "done", type: "boolean" }],
    });
    // the SUPER_ADMIN gives the server to the other tenant only
    const patched = await w.s.req("PATCH", `/api/admin/mcp-servers/${id}`, {
      token: sa,
      json: { allowedTenants: [w.otherTenantId] },
    });
    expect(patched.status).toBe(200);
    w.scriptFor("shared-user", { content: '{"done": true}' });
    const out = await playground("shared-user");
    expect(out.outputs).toEqual({ done: true });
    expect(offered()).toEqual([]);
    expect(out.toolCalls).toEqual([
      { tool: "mcp_shared", outcome: "REFUSED", detail: "MCP server 'shared' is not available to this tenant" },
    ]);
  });
  test("a global agent is offered a server's tools only in the tenants the server is allowed for", async () => {
    await createAgent(w.s, w.tok.SA, {
      key: "global-orders",
      name: "Global",
      isGlobal: true,
      mcpServers: [{ server: "orders", tools: ["lookup_order"] }],
      outputVariables: [{ name: "done", type: "boolean" }],
    });
    w.scriptFor("global-orders", { content: '{"done": true}' });
    const theirs = await w.s.req("POST", "/api/a/agents/global-orders/playground", {
      token: w.tok.OTHER,
      json: { inputs: {} },
    });
    expect(theirs.status).toBe(200);
    expect(offered()).toEqual([]);
    expect(((await theirs.json()) as { toolCalls: Call[] }).toolCalls).toEqual([
      { tool: "mcp_orders", outcome: "REFUSED", detail: "MCP server 'orders' is not available to this tenant" },
    ]);
    w.scriptFor("global-orders", { content: '{"done": true}' });
    await playground("global-orders");
    expect(offered()).toEqual(["mcp_orders_lookup_order"]);
  });
  test("a changed header is sent at the next run; a disabled or removed server is offered no more", async () => {
    const r = await w.s.req("POST", "/api/admin/mcp-servers", {
      token: sa,
      json: { name: "changing", url: remote.url, allowedTenants: [w.tenantId] },
    });
    const id = ((await r.json()) as { id: string }).id;
    await createAgent(w.s, w.tok.MODELER, {
      key: "changing-user",
      name: "Changing",
      mcpServers: [{ server: "changing", tools: ["lookup_order"] }],
      outputVariables: [{ name: "done", type: "boolean" }],
    });
    const run = () => {
      w.scriptFor(
        "changing-user",
        { toolCalls: [{ name: "mcp_changing_lookup_order", arguments: { orderId: "C-1" } }] },
        { content: '{"done": true}' },
      );
      return playground("changing-user");
    };
    expect((await run()).toolCalls).toEqual([{ tool: "mcp_changing_lookup_order", outcome: "OK", detail: null }]);
    const patch = (json: Record<string, unknown>) =>
      w.s.req("PATCH", `/api/admin/mcp-servers/${id}`, { token: sa, json });
    expect((await patch({ authHeader: { name: "X-Api-Key", value: "rotated-key-7" } })).status).toBe(200);
    const from = remote.requests.length;
    expect((await run()).toolCalls[0].outcome).toBe("OK");
    const sent = remote.requests.slice(from);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((h) => h["x-api-key"] === "rotated-key-7")).toBe(true);
    expect((await patch({ enabled: false })).status).toBe(200);
    const callsBefore = remote.calls.length;
    const disabled = await run();
    expect(remote.calls.length).toBe(callsBefore);
    // the model's call of the tool it was not offered never reaches the server
    expect(disabled.toolCalls.map((c) => [c.tool, c.outcome])).toEqual([["mcp_changing", "REFUSED"]]);
    expect(offered()).toEqual([]);
    expect((await w.s.req("DELETE", `/api/admin/mcp-servers/${id}`, { token: sa })).status).toBe(204);
    expect((await run()).toolCalls[0]).toEqual({
      tool: "mcp_changing",
      outcome: "REFUSED",
      detail: "MCP server 'changing' is not available to this tenant",
    });
  });
});

describe("what modelers see and what is cached", () => {
  test("a modeler lists the servers of the tenant and their tools as offered; another tenant's is 404", async () => {
    const servers = await w.s.req("GET", "/api/a/ai/mcp-servers", { token: w.tok.MODELER });
    expect(await servers.json()).toEqual([{ name: "orders", description: null }]);
    const theirs = await w.s.req("GET", "/api/a/ai/mcp-servers", { token: w.tok.OTHER });
    expect(((await theirs.json()) as { name: string }[]).map((s) => s.name)).toEqual(["shared"]);
    const tools = (await (
      await w.s.req("GET", "/api/a/ai/mcp-servers/orders/tools", { token: w.tok.MODELER })
    ).json()) as { name: string; description: string | null; offeredAs: string }[];
    expect(tools.find((t) => t.name === "lookup_order")).toEqual({
      name: "lookup_order",
      description: "Look up an order by its id",
      offeredAs: "mcp_orders_lookup_order",
    });
    await expectError(await w.s.req("GET", "/api/a/ai/mcp-servers/orders/tools", { token: w.tok.OTHER }), 404);
    await expectError(await w.s.req("GET", "/api/a/ai/mcp-servers/shared/tools", { token: w.tok.MODELER }), 404);
    await expectError(await w.s.req("GET", "/api/a/ai/mcp-servers", { token: w.tok.USER }), 403);
  });

  test("discovery is reused for a minute, then asked again", async () => {
    const lists = () => remote.methods.filter((m) => m === "tools/list").length;
    w.scriptFor("all-tools", { content: '{"done": true}' });
    await playground("all-tools");
    const before = lists();
    w.scriptFor("all-tools", { content: '{"done": true}' });
    await playground("all-tools");
    expect(lists()).toBe(before);
    w.s.clock.advance(61_000);
    w.scriptFor("all-tools", { content: '{"done": true}' });
    await playground("all-tools");
    expect(lists()).toBe(before + 1);
  });
});
