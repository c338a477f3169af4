import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe("OpenAPI document", () => {
  test("is OpenAPI 3.1 with the two security schemes that exist (bearer token and API key)", async () => {
    const res = await s.req("GET", "/v3/api-docs");
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiKey", "bearerAuth"]);
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
