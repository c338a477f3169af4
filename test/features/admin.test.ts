import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, login, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let sa: string;
let tenant: { id: string; slug: string };
let tenantAdmin: Awaited<ReturnType<typeof userInTenant>>;

beforeAll(async () => {
  s = await startTestServer();
  sa = await saToken(s);
  tenant = await createTenant(s, "adm", sa);
  tenantAdmin = await userInTenant(s, tenant, "ADMIN", sa);
});
afterAll(() => s.close());

describe("/admin/users", () => {
  test("creates a user (201, pinned body) and refuses a registered e-mail with 409", async () => {
    const res = await s.req("POST", "/api/admin/users", {
      token: sa,
      json: { email: "New.Person@Test.Local", password: "secret-pass-1", firstName: "New", lastName: "Person" },
    });
    expect(res.status).toBe(201);
    const u = await res.json();
    expect(u).toMatchObject({
      email: "new.person@test.local",
      firstName: "New",
      lastName: "Person",
      roles: [],
      active: true,
    });
    expect(u.passwordHash).toBeUndefined();
    await expectError(
      await s.req("POST", "/api/admin/users", {
        token: sa,
        json: { email: "new.person@test.local", password: "secret-pass-1", firstName: "X" },
      }),
      409,
    );
  });

  test("refuses invalid bodies with field errors", async () => {
    const body = await expectError(
      await s.req("POST", "/api/admin/users", { token: sa, json: { email: "not-an-email", password: "x" } }),
      400,
    );
    const fields = (body.fieldErrors as { field: string }[]).map((f) => f.field);
    expect(fields).toContain("email");
    expect(fields).toContain("firstName");
    await expectError(
      await s.req("POST", "/api/admin/users", {
        token: sa,
        json: { email: "p@x.y", password: "short", firstName: "P" },
      }),
      400,
    );
    await expectError(
      await s.req("POST", "/api/admin/users", {
        token: sa,
        json: { email: "q@x.y", password: "long-enough-1", firstName: "Q", roles: ["ADMIN"] },
      }),
      400,
    );
  });

  test("creates a SUPER_ADMIN when asked, who then reaches /admin", async () => {
    await s.req("POST", "/api/admin/users", {
      token: sa,
      json: { email: "sa2@test.local", password: "secret-pass-1", firstName: "S", roles: ["SUPER_ADMIN"] },
    });
    const pair = await login(s, "sa2@test.local", "secret-pass-1");
    expect((await s.req("GET", "/api/admin/users", { token: pair.accessToken })).status).toBe(200);
  });

  test("searches, pages and sorts", async () => {
    for (const n of ["zed", "amy", "bob"]) {
      await s.req("POST", "/api/admin/users", {
        token: sa,
        json: { email: `${n}@sorting.test`, password: "secret-pass-1", firstName: n },
      });
    }
    const asc = await (await s.req("GET", "/api/admin/users?search=sorting&sort=firstName,asc", { token: sa })).json();
    expect(asc.content.map((u: { firstName: string }) => u.firstName)).toEqual(["amy", "bob", "zed"]);
    const desc = await (
      await s.req("GET", "/api/admin/users?search=sorting&sort=email,desc&size=2&page=0", { token: sa })
    ).json();
    expect(desc.content.map((u: { firstName: string }) => u.firstName)).toEqual(["zed", "bob"]);
    expect(desc).toMatchObject({ number: 0, size: 2, totalElements: 3, totalPages: 2 });
    await expectError(await s.req("GET", "/api/admin/users?sort=passwordHash,asc", { token: sa }), 400);
  });

  test("updates, changes password, stores the AI quota and deactivates", async () => {
    const u = await (
      await s.req("POST", "/api/admin/users", {
        token: sa,
        json: { email: "life@test.local", password: "secret-pass-1", firstName: "L" },
      })
    ).json();
    const session = await login(s, "life@test.local", "secret-pass-1");
    const upd = await (
      await s.req("PUT", `/api/admin/users/${u.id}`, { token: sa, json: { firstName: "Life" } })
    ).json();
    expect(upd.firstName).toBe("Life");
    expect(
      (await s.req("PUT", `/api/admin/users/${u.id}/password`, { token: sa, json: { password: "changed-pass-1" } }))
        .status,
    ).toBe(204);
    await expectError(
      await s.req("POST", "/api/auth/login", { json: { email: "life@test.local", password: "secret-pass-1" } }),
      401,
    );
    const q = await (
      await s.req("PUT", `/api/admin/users/${u.id}/ai-quota`, { token: sa, json: { quota: 5000 } })
    ).json();
    expect(q.aiQuota).toBe(5000);
    expect((await s.req("DELETE", `/api/admin/users/${u.id}`, { token: sa })).status).toBe(204);
    const after = await (await s.req("GET", `/api/admin/users/${u.id}`, { token: sa })).json();
    expect(after.active).toBe(false);
    await expectError(
      await s.req("POST", "/api/auth/login", { json: { email: "life@test.local", password: "changed-pass-1" } }),
      401,
    );
    await expectError(await s.req("POST", "/api/auth/refresh", { json: { refreshToken: session.refreshToken } }), 401);
    await expectError(await s.req("PUT", `/api/admin/users/nope`, { token: sa, json: { firstName: "x" } }), 404);
  });
});

describe("/admin/tenants/{id}/members", () => {
  test("adds (pinned body), lists, changes role and removes a member", async () => {
    const u = await (
      await s.req("POST", "/api/admin/users", {
        token: sa,
        json: { email: "member@test.local", password: "secret-pass-1", firstName: "M" },
      })
    ).json();
    const add = await s.req("POST", `/api/admin/tenants/${tenant.id}/members`, {
      token: sa,
      json: { userId: u.id, role: "USER" },
    });
    expect(add.status).toBe(201);
    const m = await add.json();
    expect(m).toEqual({ id: expect.any(String), userId: u.id, tenantId: tenant.id, role: "USER" });
    await expectError(
      await s.req("POST", `/api/admin/tenants/${tenant.id}/members`, {
        token: sa,
        json: { userId: u.id, role: "ADMIN" },
      }),
      409,
    );
    const list = await (await s.req("GET", `/api/admin/tenants/${tenant.id}/members`, { token: sa })).json();
    expect(list.find((r: { id: string }) => r.id === m.id).email).toBe("member@test.local");
    const changed = await (
      await s.req("PATCH", `/api/admin/tenants/${tenant.id}/members/${m.id}/role`, {
        token: sa,
        json: { role: "MANAGER" },
      })
    ).json();
    expect(changed.role).toBe("MANAGER");
    await expectError(
      await s.req("PATCH", `/api/admin/tenants/${tenant.id}/members/${m.id}/role`, {
        token: sa,
        json: { role: "OWNER" },
      }),
      400,
    );
    expect((await s.req("DELETE", `/api/admin/tenants/${tenant.id}/members/${m.id}`, { token: sa })).status).toBe(204);
    await expectError(await s.req("DELETE", `/api/admin/tenants/${tenant.id}/members/${m.id}`, { token: sa }), 404);
  });

  test("a membership id of another tenant answers 404", async () => {
    const other = await createTenant(s, "adm-other", sa);
    const list = await (await s.req("GET", `/api/admin/tenants/${tenant.id}/members`, { token: sa })).json();
    await expectError(
      await s.req("DELETE", `/api/admin/tenants/${other.id}/members/${list[0].id}`, { token: sa }),
      404,
    );
  });
});

describe("/admin/** is SUPER_ADMIN only", () => {
  const paths: [string, string][] = [
    ["GET", "/api/admin/users"],
    ["POST", "/api/admin/users"],
    ["GET", "/api/admin/tenants"],
    ["POST", "/api/admin/tenants"],
    ["GET", "/api/admin/tenants/x/members"],
    ["POST", "/api/admin/tenants/x/members"],
    ["PATCH", "/api/admin/tenants/x/suspend"],
    ["GET", "/api/admin/dmn-templates"],
    ["GET", "/api/admin/anything/at/all"],
  ];
  test("a tenant Admin gets 403 on every /admin path, member routes included", async () => {
    for (const [m, p] of paths) await expectError(await s.req(m, p, { token: tenantAdmin.token, json: {} }), 403);
  });
  test("without a token every /admin path answers 401", async () => {
    for (const [m, p] of paths) await expectError(await s.req(m, p, { json: {} }), 401);
  });
  test("an API key never reaches /admin", async () => {
    const k = await (
      await s.req("POST", "/api/a/api-keys", {
        token: tenantAdmin.token,
        json: { name: "k", scopes: ["read", "write"] },
      })
    ).json();
    await expectError(await s.req("GET", "/api/admin/users", { apiKey: k.key }), 401);
  });
});
