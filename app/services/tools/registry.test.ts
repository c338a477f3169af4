import { expect, test } from "bun:test";
import { AGENT_TOOLS } from "../agents/store";
import { agentToolNamed, agentTools } from "./agent-tools";
import { mayCall } from "./authorise";
import { TOOLS, toolNamed, toolsOf } from "./registry";

test("one registry: every tool once by name, MCP's and the agents' tools each under their surface", () => {
  expect(new Set(TOOLS.map((t) => t.name)).size).toBe(TOOLS.length);
  expect(toolsOf("agent").map((t) => t.name)).toEqual([...AGENT_TOOLS]);
  expect(agentTools.every((t) => toolNamed(t.name) === t && agentToolNamed(t.name) === t)).toBe(true);
  expect(toolsOf("mcp").every((t) => t.name.startsWith("svc_"))).toBe(true);
  expect(toolsOf("mcp").length + toolsOf("agent").length).toBe(TOOLS.length);
});

test("who may call: MCP tools an Admin or SUPER_ADMIN only; agent tools only an agent that lists them", () => {
  const actor = (roles: string[], sa = false) =>
    ({
      kind: "user",
      userId: "u",
      email: null,
      isSuperAdmin: sa,
      tenantRoles: roles,
      apiKeyId: null,
      channel: "MCP",
    }) as never;
  const mcp = toolsOf("mcp")[0];
  const cms = toolNamed("cms_query")!;
  expect(mayCall(mcp, { actor: actor(["ADMIN"]) })).toBe(true);
  expect(mayCall(mcp, { actor: actor([], true) })).toBe(true);
  expect(mayCall(mcp, { actor: actor(["MANAGER", "MODELER", "USER"]) })).toBe(false);
  // An agent tool is no MCP tool, whoever asks.
  expect(mayCall(cms, { actor: actor(["ADMIN"], true) })).toBe(false);
  const run = (tools: string[]) => ({ agent: { agent: { tools } } }) as never;
  expect(mayCall(cms, run(["cms_query"]))).toBe(true);
  expect(mayCall(cms, run(["kb_retrieve"]))).toBe(false);
  expect(mayCall(mcp, run([mcp.name]))).toBe(false);
});
