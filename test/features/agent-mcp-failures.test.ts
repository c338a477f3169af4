import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, saToken } from "../harness/fixtures";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { type RemoteMcp, startRemoteMcp } from "../harness/mcp-remote-server";

// A remote MCP server that is down, fails, is slow or answers too much: each is a failed tool call told to the model
// and recorded, never a failed step (docs/limits.md, "MCP servers as tool sources").
let w: AgentWorld;
let remote: RemoteMcp;
let sa: string;

type Call = { tool: string; outcome: string; detail: string | null };

beforeAll(async () => {
  w = await startAgentWorld({ env: { MCP_SERVERS_ALLOW_PRIVATE: "127.0.0.1", MCP_TOOL_TIMEOUT_MS: "3000" } });
  remote = startRemoteMcp();
  sa = await saToken(w.s);
  await register("orders", remote.url);
});
afterAll(async () => {
  remote.stop();
  await w.stop();
});

async function register(name: string, url: string) {
  const r = await w.s.req("POST", "/api/admin/mcp-servers", {
    token: sa,
    json: { name, url, allowedTenants: [w.tenantId] },
  });
  expect(r.status).toBe(201);
}

async function playground(key: string): Promise<{ outputs: Record<string, unknown>; toolCalls: Call[] }> {
  const r = await w.s.req("POST", `/api/a/agents/${key}/playground`, { token: w.tok.MODELER, json: { inputs: {} } });
  expect(r.status).toBe(200);
  return (await r.json()) as never;
}

/** An agent using `server`, scripted to call `tool` with `args` and then answer its output. */
async function agentCalling(key: string, server: string, tool: string, args: Record<string, unknown>) {
  await createAgent(w.s, w.tok.MODELER, {
    key,
    name: key,
    mcpServers: [{ server }],
    outputVariables: [{ name: "done", type: "boolean" }],
  });
  w.scriptFor(key, { toolCalls: [{ name: `mcp_${server}_${tool}`, arguments: args }] }, { content: '{"done": true}' });
}

/** The text the model got back as the result of its last tool call. */
const toolResultSeen = () =>
  JSON.stringify(
    ((w.ai.calls.at(-1)?.body.messages ?? []) as { role: string; content: unknown }[]).filter((m) => m.role === "tool"),
  );

describe("MCP tool calls that fail", () => {
  test("a server that goes down: the call fails, the model is told, the agent goes on", async () => {
    const flaky = startRemoteMcp();
    await register("flaky", flaky.url);
    await agentCalling("flaky-user", "flaky", "lookup_order", { orderId: "B-1" });
    expect((await playground("flaky-user")).toolCalls).toEqual([
      { tool: "mcp_flaky_lookup_order", outcome: "OK", detail: null },
    ]);
    flaky.stop();
    w.scriptFor(
      "flaky-user",
      { toolCalls: [{ name: "mcp_flaky_lookup_order", arguments: { orderId: "B-2" } }] },
      { content: '{"done": true}' },
    );
    const out = await playground("flaky-user");
    expect(out.outputs).toEqual({ done: true });
    expect(out.toolCalls).toHaveLength(1);
    expect(out.toolCalls[0]).toMatchObject({ tool: "mcp_flaky_lookup_order", outcome: "ERROR" });
    expect(out.toolCalls[0].detail).toMatch(/^MCP server 'flaky' could not run lookup_order: /);
    expect(toolResultSeen()).toContain("could not run lookup_order");
  });

  test("a server down at discovery offers no tools; the audit records it and the agent finishes", async () => {
    const gone = startRemoteMcp();
    gone.stop();
    await register("gone", gone.url);
    await createAgent(w.s, w.tok.MODELER, {
      key: "gone-user",
      name: "Gone",
      mcpServers: [{ server: "gone" }],
      outputVariables: [{ name: "done", type: "boolean" }],
    });
    w.scriptFor("gone-user", { content: '{"done": true}' });
    const out = await playground("gone-user");
    expect(out.outputs).toEqual({ done: true });
    expect(w.ai.calls.at(-1)?.body.tools).toBeUndefined();
    expect(out.toolCalls).toHaveLength(1);
    expect(out.toolCalls[0]).toMatchObject({ tool: "mcp_gone", outcome: "ERROR" });
    expect(out.toolCalls[0].detail).toMatch(/^tools\/list of MCP server 'gone' failed: /);
    // a modeler asking for its tools gets 503 naming it
    await expectError(
      await w.s.req("GET", "/api/a/ai/mcp-servers/gone/tools", { token: w.tok.MODELER }),
      503,
      /MCP server gone could not be reached/,
    );
  });

  test("a tool answering an error (isError) is a failed call with the server's text", async () => {
    await agentCalling("broken-user", "orders", "broken", {});
    const out = await playground("broken-user");
    expect(out.outputs).toEqual({ done: true });
    expect(out.toolCalls).toEqual([
      {
        tool: "mcp_orders_broken",
        outcome: "ERROR",
        detail: "MCP tool broken reported an error: the order system is in maintenance",
      },
    ]);
    expect(toolResultSeen()).toContain("in maintenance");
  });
});

describe("limits of MCP tool calls (docs/limits.md)", () => {
  test("a result over 65,536 characters is refused and told to the model", async () => {
    await agentCalling("big-result", "orders", "big_text", { chars: 70_000 });
    const out = await playground("big-result");
    expect(out.outputs).toEqual({ done: true });
    expect(out.toolCalls[0]).toMatchObject({ tool: "mcp_orders_big_text", outcome: "ERROR" });
    expect(out.toolCalls[0].detail).toMatch(/is larger than the limit of 65536$/);
    expect(toolResultSeen()).not.toContain("xxxxxxxxxx");
  });

  test("an answer over 1 MiB is cut off while it streams and the call fails", async () => {
    await agentCalling("huge-answer", "orders", "big_text", { chars: 2_000_000 });
    const out = await playground("huge-answer");
    expect(out.outputs).toEqual({ done: true });
    expect(out.toolCalls[0]).toMatchObject({ tool: "mcp_orders_big_text", outcome: "ERROR" });
    expect(out.toolCalls[0].detail).toMatch(/the answer is larger than 1048576 bytes/);
  });

  test("a call past MCP_TOOL_TIMEOUT_MS is abandoned and the call fails", async () => {
    await agentCalling("too-slow", "orders", "slow", { ms: 20_000 });
    const out = await playground("too-slow");
    expect(out.outputs).toEqual({ done: true });
    expect(out.toolCalls[0]).toMatchObject({ tool: "mcp_orders_slow", outcome: "ERROR" });
    expect(out.toolCalls[0].detail).toMatch(/did not answer within 3000 ms/);
  });
});
