import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../../test/harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../../test/harness/fixtures";

let s: TestServer;
let user: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  user = await userInTenant(s, await createTenant(s, "mcp-less", sa), "USER", sa);
});
afterAll(() => s.close());

describe("/api/a/mcp until the MCP server exists", () => {
  test("asks for authentication first, like every other path under /api/a", async () => {
    await expectError(await s.req("POST", "/api/a/mcp", { json: {} }), 401);
    await expectError(await s.req("GET", "/api/a/mcp/sse"), 401);
    await expectError(
      await s.req("POST", "/api/a/mcp", { json: {}, headers: { authorization: `Basic ${btoa("a@b.c:secret")}` } }),
      401,
    );
  });

  test("answers an authenticated caller 404 in the error shape, like any unknown route", async () => {
    const body = await expectError(await s.req("POST", "/api/a/mcp", { token: user.token, json: {} }), 404);
    expect(body.path).toBe("/api/a/mcp");
    await expectError(await s.req("GET", "/api/a/mcp/tools", { token: user.token }), 404);
  });

  test("the OpenAPI document advertises no Basic scheme", async () => {
    const doc = await (await s.req("GET", "/v3/api-docs")).json();
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(["apiKey", "bearerAuth"]);
    expect(JSON.stringify(doc)).not.toContain("basicAuth");
  });
});
