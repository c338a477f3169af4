import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe("OpenAPI document", () => {
  test("is OpenAPI 3.1 with the three security schemes that exist (bearer token, API key, Basic for MCP)", async () => {
    const res = await s.req("GET", "/v3/api-docs");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiKey", "basicAuth", "bearerAuth"]);
  });

  test("documents /a/mcp (POST, GET, DELETE) as the MCP Streamable HTTP endpoint with Basic authentication", async () => {
    const doc = await (await s.req("GET", "/v3/api-docs")).json();
    const item = doc.paths["/api/a/mcp"];
    expect(Object.keys(item).sort()).toEqual(["delete", "get", "post"]);
    for (const op of Object.values(item) as {
      description: string;
      security: unknown;
      parameters: { name: string }[];
    }[]) {
      expect(op.description).toContain("MCP Streamable HTTP endpoint");
      expect(op.description).toContain("HTTP Basic");
      expect(op.security).toEqual([{ basicAuth: [] }]);
      expect(op.parameters.map((p) => p.name)).toContain("X-Tenant-ID");
    }
    expect(item.post.operationId).toBe("postMcp");
    expect(doc.components.securitySchemes.basicAuth).toEqual({ type: "http", scheme: "basic" });
  });

  test("with MCP_SERVER_ENABLED=false, /a/mcp is neither served nor documented", async () => {
    const off = await startTestServer({ env: { MCP_SERVER_ENABLED: "false" } });
    try {
      const doc = await (await off.req("GET", "/v3/api-docs")).json();
      expect(doc.paths["/api/a/mcp"]).toBeUndefined();
      expect((await off.req("POST", "/api/a/mcp", { json: {} })).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  test("lists every route the application serves, with the error schema", async () => {
    const doc = await (await s.req("GET", "/v3/api-docs")).json();
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, unknown>>)) {
      for (const m of Object.keys(ops)) documented.add(`${m.toUpperCase()} ${path}`);
    }
    const served = s.app.routes
      .filter((r) => r.path.startsWith("/api/") && r.method !== "ALL")
      .map((r) => `${r.method} ${r.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(served.length).toBeGreaterThan(20);
    for (const route of served) expect(documented.has(route) ? route : `undocumented: ${route}`).toBe(route);
    expect(doc.components.schemas.Error).toBeDefined();
  });

  test("the interactive page is served", async () => {
    const res = await s.req("GET", "/swagger-ui");
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('src="/swagger-ui/init.js"');
    // The page's script (served beside it, no inline code) loads the document.
    expect(await (await s.req("GET", "/swagger-ui/init.js")).text()).toContain("/v3/api-docs");
  });
});
