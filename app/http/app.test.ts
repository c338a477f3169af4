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

describe("/api/a/mcp (the MCP server: test/features/mcp*.test.ts)", () => {
  test("asks for authentication first, with the Basic challenge on /api/a/mcp itself", async () => {
    await expectError(await s.req("POST", "/api/a/mcp", { json: {} }), 401);
    await expectError(await s.req("GET", "/api/a/mcp/sse"), 401);
    await expectError(
      await s.req("POST", "/api/a/mcp", { json: {}, headers: { authorization: `Basic ${btoa("a@b.c:secret")}` } }),
      401,
    );
  });

  test("a bearer token is not its credential (401 with the challenge); paths below it are unknown routes", async () => {
    const res = await s.req("POST", "/api/a/mcp", { token: user.token, json: {} });
    expect(res.headers.get("www-authenticate")).toBe('Basic realm="svc-mcp"');
    await expectError(res, 401);
    await expectError(await s.req("GET", "/api/a/mcp/tools", { token: user.token }), 404);
  });

  test("the OpenAPI document names Basic only for /a/mcp, the one route that takes it", async () => {
    const doc = await (await s.req("GET", "/v3/api-docs")).json();
    const basic = Object.entries(doc.paths as Record<string, Record<string, { security?: unknown[] }>>).flatMap(
      ([path, ops]) =>
        Object.entries(ops)
          .filter(([, op]) => JSON.stringify(op.security ?? []).includes("basicAuth"))
          .map(([method]) => `${method} ${path}`),
    );
    expect(basic.sort()).toEqual(["delete /api/a/mcp", "get /api/a/mcp", "post /api/a/mcp"]);
  });
});
