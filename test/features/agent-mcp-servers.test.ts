import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError, saToken } from "../harness/fixtures";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { type RemoteMcp, startRemoteMcp } from "../harness/mcp-remote-server";

// Registration of remote MCP servers (SUPER_ADMIN) and their use in agents' configurations.
let w: AgentWorld;
let remote: RemoteMcp;
let sa: string;
const SECRET = "sk-remote-0123456789-secret";

beforeAll(async () => {
  // 127.0.0.1 (the test's MCP server) is let through as an operator would list an internal host; nothing else is.
  w = await startAgentWorld({ env: { MCP_SERVERS_ALLOW_PRIVATE: "127.0.0.1" } });
  remote = startRemoteMcp();
  sa = await saToken(w.s);
});
afterAll(async () => {
  remote.stop();
  await w.stop();
});

const register = (body: Record<string, unknown>, token = sa) =>
  w.s.req("POST", "/api/admin/mcp-servers", { token, json: body });

describe("registering MCP servers", () => {
  test("a SUPER_ADMIN registers a server; the auth header's value is sealed and no GET returns it", async () => {
    const r = await register({
      name: "orders",
      description: "Order system",
      url: remote.url,
      authHeader: { name: "X-Api-Key", value: SECRET },
      allowedTenants: [w.tenantId],
    });
    expect(r.status).toBe(201);
    const created = (await r.json()) as Record<string, unknown>;
    expect(created).toMatchObject({
      name: "orders",
      url: remote.url,
      authHeaderName: "X-Api-Key",
      authHeaderSet: true,
      allowedTenants: [w.tenantId],
      enabled: true,
    });
    const one = await w.s.req("GET", `/api/admin/mcp-servers/${created.id}`, { token: sa });
    const list = await w.s.req("GET", "/api/admin/mcp-servers", { token: sa });
    for (const text of [JSON.stringify(created), await one.text(), await list.text()]) {
      expect(text).not.toContain(SECRET);
      expect(text).toContain('"authHeaderSet":true');
    }
    // sealed at rest: the platform database holds no plain copy
    const row = w.s.platform.platformDb.$client
      .query("SELECT auth_header_value_sealed AS v FROM mcp_servers WHERE name = 'orders'")
      .get() as { v: string };
    expect(row.v).not.toContain(SECRET);
    expect(row.v.startsWith("v1.")).toBe(true);
  });

  test("PATCH keeps an absent header, null removes it; the name stays; a missing id is 404", async () => {
    const id = (
      (await (await register({ name: "patchme", url: remote.url, allowedTenants: [] })).json()) as {
        id: string;
      }
    ).id;
    const set = await w.s.req("PATCH", `/api/admin/mcp-servers/${id}`, {
      token: sa,
      json: { authHeader: { name: "Authorization", value: "Bearer t" } },
    });
    expect(((await set.json()) as { authHeaderSet: boolean }).authHeaderSet).toBe(true);
    const kept = await w.s.req("PATCH", `/api/admin/mcp-servers/${id}`, { token: sa, json: { description: "d" } });
    expect(await kept.json()).toMatchObject({ authHeaderSet: true, authHeaderName: "Authorization", description: "d" });
    const cleared = await w.s.req("PATCH", `/api/admin/mcp-servers/${id}`, { token: sa, json: { authHeader: null } });
    expect(await cleared.json()).toMatchObject({ authHeaderSet: false, authHeaderName: null });
    await expectError(await w.s.req("PATCH", `/api/admin/mcp-servers/${id}`, { token: sa, json: { name: "x" } }), 400);
    expect((await w.s.req("DELETE", `/api/admin/mcp-servers/${id}`, { token: sa })).status).toBe(204);
    await expectError(await w.s.req("GET", `/api/admin/mcp-servers/${id}`, { token: sa }), 404);
    await expectError(await w.s.req("PATCH", `/api/admin/mcp-servers/${id}`, { token: sa, json: {} }), 404);
  });

  test("tenant roles, however high, are refused (403)", async () => {
    for (const role of ["ADMIN", "MODELER", "MANAGER", "USER"]) {
      await expectError(await w.s.req("GET", "/api/admin/mcp-servers", { token: w.tok[role] }), 403);
      await expectError(
        await register({ name: `by-${role.toLowerCase()}`, url: remote.url, allowedTenants: [] }, w.tok[role]),
        403,
      );
    }
    await expectError(await w.s.req("GET", "/api/admin/mcp-servers"), 401);
  });

  test("bad URLs, internal addresses outside the allow-list, unknown tenants and bad bodies are refused", async () => {
    const bad = async (body: Record<string, unknown>, message: RegExp) =>
      expectError(await register({ name: "bad", allowedTenants: [], url: remote.url, ...body }), 400, message);
    await bad({ url: "not a url" }, /url/);
    await bad({ url: "ftp://127.0.0.1/mcp" }, /http or https/);
    await bad({ url: "http://user:pw@127.0.0.1/mcp" }, /credentials/);
    await bad({ url: "http://10.1.2.3/mcp" }, /private address/);
    await bad({ url: "http://169.254.169.254/mcp" }, /metadata address/);
    await bad({ url: "http://[::1]:9/mcp" }, /loopback address/);
    const unknown = await bad({ allowedTenants: ["no-such-tenant"] }, /unknown tenants/);
    expect(unknown.fieldErrors).toEqual([{ field: "allowedTenants.0", message: "tenant no-such-tenant not found" }]);
    await bad({ name: "Bad Name" }, /name/);
    await bad({ authHeader: { name: "Host", value: "x" } }, /set by the MCP client/);
    await bad({ authHeader: { name: "X-Key", value: "a\nb" } }, /control characters/);
    await bad({ extra: true }, /extra|Unrecognized/i);
    await expectError(await register({ name: "orders", url: remote.url, allowedTenants: [] }), 409, /exists/);
    const names = ((await (await w.s.req("GET", "/api/admin/mcp-servers", { token: sa })).json()) as { name: string }[])
      .map((s) => s.name)
      .sort();
    expect(names).toEqual(["orders"]);
  });
});

describe("an agent's MCP servers", () => {
  test("an agent lists a server allowed for its tenant, with a tool allow-list; GET shows it", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "with-orders",
      name: "With orders",
      mcpServers: [{ server: "orders", tools: ["lookup_order"] }],
    });
    const got = (await (await w.s.req("GET", "/api/a/agents/with-orders", { token: w.tok.MODELER })).json()) as {
      mcpServers: unknown;
    };
    expect(got.mcpServers).toEqual([{ server: "orders", tools: ["lookup_order"] }]);
  });

  test("another tenant's server, an unknown one or a repeated one is refused on save (400), nothing written", async () => {
    const other = await register({ name: "elsewhere", url: remote.url, allowedTenants: [w.otherTenantId] });
    expect(other.status).toBe(201);
    const save = (mcpServers: unknown, key = "not-saved") =>
      w.s.req("POST", "/api/a/agents", {
        token: w.tok.MODELER,
        json: { key, name: "N", modelId: "fake-chat", instructions: "agent x", mcpServers },
      });
    const refused = await expectError(await save([{ server: "elsewhere" }]), 400, /is available to this tenant/);
    expect(refused.fieldErrors).toEqual([
      { field: "mcpServers.0.server", message: "no MCP server 'elsewhere' is available to this tenant" },
    ]);
    await expectError(await save([{ server: "nowhere" }]), 400, /'nowhere' is available/);
    await expectError(await save([{ server: "orders" }, { server: "orders" }]), 400, /listed twice/);
    await expectError(await save([{ server: "orders", tools: "all" }]), 400);
    await expectError(await w.s.req("GET", "/api/a/agents/not-saved", { token: w.tok.MODELER }), 404);
    // the other tenant's own agents may use it
    await createAgent(w.s, w.tok.OTHER, { key: "their-agent", name: "Theirs", mcpServers: [{ server: "elsewhere" }] });
    // an update to another tenant's server is refused as well, and the agent stays as it was
    await expectError(
      await w.s.req("PUT", "/api/a/agents/with-orders", {
        token: w.tok.MODELER,
        json: {
          key: "with-orders",
          name: "With orders",
          modelId: "fake-chat",
          instructions: "agent with-orders",
          mcpServers: [{ server: "elsewhere" }],
        },
      }),
      400,
    );
    const kept = (await (await w.s.req("GET", "/api/a/agents/with-orders", { token: w.tok.MODELER })).json()) as {
      mcpServers: { server: string }[];
    };
    expect(kept.mcpServers.map((m) => m.server)).toEqual(["orders"]);
  });
});
