import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let admin: { id: string; token: string },
  modeler: string,
  manager: string,
  user: { id: string; token: string },
  saInTenant: string;
let outsiderId: string;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "members-a", sa);
  const t2 = await createTenant(s, "members-b", sa);
  admin = await userInTenant(s, t, "ADMIN", sa);
  modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  manager = (await userInTenant(s, t, "MANAGER", sa)).token;
  user = await userInTenant(s, t, "USER", sa);
  outsiderId = (await userInTenant(s, t2, "USER", sa)).id;
  saInTenant = await saTenantToken(s, t);
});
afterAll(() => s.close());

describe("GET /a/members", () => {
  test("an Admin sees the members of the current tenant only, with their role", async () => {
    const res = await s.req("GET", "/api/a/members", { token: admin.token });
    expect(res.status).toBe(200);
    const rows = await res.json();
    expect(rows).toHaveLength(4);
    expect(rows.find((m: { userId: string }) => m.userId === user.id)).toMatchObject({
      role: "USER",
      active: true,
      email: expect.any(String),
    });
    expect(rows.find((m: { userId: string }) => m.userId === admin.id).role).toBe("ADMIN");
    expect(rows.some((m: { userId: string }) => m.userId === outsiderId)).toBe(false);
  });

  test("SUPER_ADMIN with the tenant selected passes", async () => {
    expect((await s.req("GET", "/api/a/members", { token: saInTenant })).status).toBe(200);
  });

  test("Modeler, Manager and User are refused with 403", async () => {
    for (const token of [modeler, manager, user.token])
      await expectError(await s.req("GET", "/api/a/members", { token }), 403);
  });

  test("an API key is refused (it has no membership)", async () => {
    const key = await apiKey(s, admin.token, ["read"]);
    await expectError(await s.req("GET", "/api/a/members", { apiKey: key.key }), 403);
  });
});
