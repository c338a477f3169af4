import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant, expectError } from "../harness/fixtures";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe("service basics", () => {
  test("health answers UP", async () => {
    const res = await s.req("GET", "/health");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "UP" });
  });

  test("a provisioned tenant becomes ACTIVE and its admin reaches tenant routes", async () => {
    const sa = await saToken(s);
    const t = await createTenant(s, "acme", sa);
    const got = await s.req("GET", `/api/admin/tenants/${t.id}`, { token: sa });
    expect((await got.json()).status).toBe("ACTIVE");
    const admin = await userInTenant(s, t, "ADMIN", sa);
    const keys = await s.req("GET", "/api/a/api-keys", { token: admin.token });
    expect(keys.status).toBe(200);
  });

  test("unknown routes answer 404 in the error shape", async () => {
    const sa = await saToken(s);
    await expectError(await s.req("GET", "/api/admin/definitions", { token: sa }), 404);
  });
});
