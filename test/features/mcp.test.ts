import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  basic,
  type Listening,
  MCP_TOOLS_BY_FILE,
  mcpClient,
  okOf,
  rawInitialize,
  refusalOf,
  REVIEW_FLOW,
  startListening,
  ToolCalls,
} from "../harness/mcp";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";

/** The spec's 38 tools, as the test files share them out (each file proves its tools both ways). */
const ALL_TOOLS: string[] = Object.values(MCP_TOOLS_BY_FILE).flat();

let L: Listening;
let tenant: { id: string; slug: string };
let admin: { id: string; email: string; password: string; token: string };
let user: { email: string; password: string };
let mcp: Client;

const calls = new ToolCalls();
const call = (name: string, args: Record<string, unknown> = {}, c = mcp) => calls.call(c, name, args);
const ok = okOf;
const refused = (r: Awaited<ReturnType<typeof call>>, msg: RegExp) => expect(refusalOf(r)).toMatch(msg);

beforeAll(async () => {
  L = await startListening();
  const sa = await saToken(L.s);
  tenant = await createTenant(L.s, "acme", sa);
  admin = await userInTenant(L.s, tenant, "ADMIN", sa);
  user = await userInTenant(L.s, tenant, "USER", sa);
  await deployBpmn(L.s, admin.token, REVIEW_FLOW.replace("KEY", "pNone"));
  mcp = await mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "acme" });
});
afterAll(async () => {
  await mcp?.close();
  await L?.close();
});

describe("transport and authentication", () => {
  test("initialize negotiates the protocol and opens a session", async () => {
    const res = await rawInitialize(L.url, {
      authorization: basic(admin.email, admin.password),
      "x-tenant-id": "acme",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeTruthy();
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(await res.text()).toContain('"protocolVersion":"2025-06-18"');
    expect(mcp.getServerVersion()?.name).toBe("svc-mcp");
    // An older version the SDK supports is answered in kind; an unknown one gets the latest the server speaks.
    const auth = { authorization: basic(admin.email, admin.password), "x-tenant-id": "acme" };
    expect(await (await rawInitialize(L.url, auth, "2025-03-26")).text()).toContain('"protocolVersion":"2025-03-26"');
    expect(await (await rawInitialize(L.url, auth, "1999-01-01")).text()).toMatch(
      /"protocolVersion":"20\d\d-\d\d-\d\d"/,
    );
  });

  test("a wrong password answers 401 with the Basic challenge; no credential too", async () => {
    for (const authorization of [basic(admin.email, "wrong-password"), undefined]) {
      const res = await fetch(L.url, {
        method: "POST",
        headers: { ...(authorization ? { authorization } : {}), "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="svc-mcp"');
    }
  });

  test("a slug the user is not a member of does not authenticate", async () => {
    await createTenant(L.s, "other");
    await expect(mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "other" })).rejects.toThrow(
      /401/,
    );
    const raw = await rawInitialize(L.url, {
      authorization: basic(admin.email, admin.password),
      "x-tenant-id": "other",
    });
    expect(raw.status).toBe(401);
    expect(raw.headers.get("www-authenticate")).toBe('Basic realm="svc-mcp"');
    expect(((await raw.json()) as { message: string }).message).toBe("You are not a member of tenant 'other'");
  });

  test("a foreign browser origin is refused; a local one passes the origin check", async () => {
    const h = { authorization: basic(admin.email, admin.password), "content-type": "application/json" };
    const evil = await fetch(L.url, { method: "POST", headers: { ...h, origin: "http://evil.example" }, body: "{}" });
    expect(evil.status).toBe(403);
    const local = await fetch(L.url, {
      method: "POST",
      headers: { ...h, origin: "http://localhost:3000" },
      body: "{}",
    });
    expect(local.status).toBe(400); // past the origin and the credential: no session, not an initialize
  });

  test("an ordinary user authenticates but lists no tool and every call is refused", async () => {
    const c = await mcpClient(L.url, { ...user, tenant: "acme" });
    expect((await c.listTools()).tools).toEqual([]);
    for (const name of ALL_TOOLS) {
      const r = (await c.callTool({ name, arguments: {} })) as Awaited<ReturnType<typeof call>>;
      expect(refusalOf(r)).toBe("MCP tools require the tenant ADMIN role or SUPER_ADMIN");
    }
    await c.close();
  });

  test("SUPER_ADMIN without X-Tenant-ID operates with no tenant: tools are listed, a call asks for the header", async () => {
    const c = await mcpClient(L.url, { email: "admin@test.local", password: "admin-password-1" });
    expect((await c.listTools()).tools).toHaveLength(38);
    refused(await call("svc_process_list", {}, c), /No tenant selected: send the header X-Tenant-ID/);
    await c.close();
    const inTenant = await mcpClient(L.url, {
      email: "admin@test.local",
      password: "admin-password-1",
      tenant: "acme",
    });
    expect(ok(await call("svc_process_list", {}, inTenant)).items.map((d: { key: string }) => d.key)).toContain(
      "pNone",
    );
    await inTenant.close();
  });

  test("failed Basic attempts count against the login limiter (shared with POST /auth/login)", async () => {
    const sa = await saToken(L.s);
    const victim = await userInTenant(L.s, tenant, "ADMIN", sa);
    const post = (password: string) =>
      fetch(L.url, {
        method: "POST",
        headers: {
          authorization: basic(victim.email, password),
          "x-tenant-id": "acme",
          "content-type": "application/json",
        },
        body: "{}",
      });
    for (let i = 0; i < 6; i++) expect((await post("wrong-password")).status).toBe(401);
    const limited = await post(victim.password);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    const rest = await L.s.req("POST", "/api/auth/login", {
      json: { email: victim.email, password: victim.password },
      ip: "127.0.0.1",
    });
    expect(rest.status).toBe(429);
    L.s.clock.advance(2_000);
    await expect(
      mcpClient(L.url, { email: victim.email, password: victim.password, tenant: "acme" }),
    ).resolves.toBeTruthy();
  });

  test("MCP_SERVER_ENABLED=false removes the route", async () => {
    const off = await startListening({ MCP_SERVER_ENABLED: "false" });
    const res = await fetch(off.url, { method: "POST", headers: { authorization: basic("a@b.c", "x") }, body: "{}" });
    expect(res.status).toBe(404);
    await off.close();
  });
});

describe("tools", () => {
  test("tools/list names the spec's 38 tools, each with its hints and its input and output schemas", async () => {
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...ALL_TOOLS].sort());
    for (const t of tools) {
      expect(typeof t.annotations?.readOnlyHint).toBe("boolean");
      expect(typeof t.annotations?.destructiveHint).toBe("boolean");
      if (t.annotations?.readOnlyHint) expect(t.annotations.destructiveHint).toBe(false);
      expect(t.inputSchema.type).toBe("object");
      expect(t.outputSchema?.type).toBe("object");
      expect(t.description?.length).toBeGreaterThan(20);
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("svc_run_task_complete")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("svc_run_task_complete")?.annotations?.idempotentHint).toBeUndefined();
    expect(byName.get("svc_process_list")?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    // Everything that only reads says so; the writes are the rest.
    const readOnly = tools.filter((t) => t.annotations?.readOnlyHint).map((t) => t.name);
    expect(readOnly.sort()).toEqual(
      ALL_TOOLS.filter((n) =>
        /_(list|get|get_xml|versions|field_types|query|validate|propose|suggest_knowledge|my_tasks|preview|why_failed)$/.test(
          n,
        ),
      ).sort(),
    );
    // Destructive (MCP: not only additive): a completion, and a load that may overwrite records by keyField.
    const destructive = tools.filter((t) => t.annotations?.destructiveHint).map((t) => t.name);
    expect(destructive.sort()).toEqual(["svc_cms_records_load", "svc_run_task_complete"]);
    expect(byName.get("svc_run_start")?.inputSchema.required).toEqual(["definitionKey"]);
    expect(byName.get("svc_run_task_complete")?.inputSchema.required).toEqual(["taskId", "confirmationToken"]);
    expect(byName.get("svc_cms_records_load")?.inputSchema.properties).toHaveProperty("records");
    expect(byName.get("svc_run_task_preview")?.outputSchema?.properties).toHaveProperty("confirmationToken");
  });

  test("service errors come back as tool errors with the REST message; bad input with the field", async () => {
    refused(await call("svc_process_versions", { key: "nope" }), /Definition 'nope' not found/);
    refused(await call("svc_run_start", {}), /definitionKey/);
  });
});
