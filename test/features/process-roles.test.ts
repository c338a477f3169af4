import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { processRoleGrantsOfUser, processRolesOfUser, usersInRole } from "../../app/services/process-roles/queries";

let s: TestServer;
let sa: string;
let tenant: { id: string; slug: string }, otherTenant: { id: string; slug: string };
let modeler: string, admin: string;
let user: { id: string; token: string }, user2: { id: string; token: string }, outsider: { id: string; token: string };

beforeAll(async () => {
  s = await startTestServer();
  sa = await saToken(s);
  tenant = await createTenant(s, "roles-a", sa);
  otherTenant = await createTenant(s, "roles-b", sa);
  modeler = (await userInTenant(s, tenant, "MODELER", sa)).token;
  admin = (await userInTenant(s, tenant, "ADMIN", sa)).token;
  user = await userInTenant(s, tenant, "USER", sa);
  user2 = await userInTenant(s, tenant, "USER", sa);
  outsider = await userInTenant(s, otherTenant, "ADMIN", sa);
});
afterAll(() => s.close());

const createRole = (json: Record<string, unknown>, token = modeler) =>
  s.req("POST", "/api/a/process-roles", { token, json });

describe("defining process roles", () => {
  test("a Modeler defines a role for a process and a tenant-wide one; keys repeat across scopes", async () => {
    const a = await createRole({ processKey: "loan", key: "approver", name: "Approver" });
    expect(a.status).toBe(201);
    expect(await a.json()).toMatchObject({ processKey: "loan", key: "approver", name: "Approver", members: [] });
    const g = await createRole({ key: "approver", name: "Any approver" });
    expect(g.status).toBe(201);
    expect((await g.json()).processKey).toBeNull();
    expect((await createRole({ processKey: "claim", key: "approver", name: "Claims" })).status).toBe(201);
  });

  test("a duplicate key in the same scope answers 409", async () => {
    await expectError(await createRole({ processKey: "loan", key: "approver", name: "Again" }), 409, /already exists/);
    await expectError(await createRole({ key: "approver", name: "Again" }), 409, /tenant-wide/);
  });

  test("lists all roles, or one process's with the tenant-wide ones", async () => {
    const all = await (await s.req("GET", "/api/a/process-roles", { token: user.token })).json();
    expect(all).toHaveLength(3);
    const loan = await (await s.req("GET", "/api/a/process-roles?processKey=loan", { token: user.token })).json();
    expect(loan.map((r: { processKey: string | null }) => r.processKey).sort()).toEqual(["loan", null].sort());
  });

  test("a plain user cannot define, rename or delete roles; malformed bodies answer 400", async () => {
    await expectError(await createRole({ key: "x", name: "X" }, user.token), 403);
    const [role] = await (await s.req("GET", "/api/a/process-roles", { token: user.token })).json();
    await expectError(await s.req("DELETE", `/api/a/process-roles/${role.id}`, { token: user.token }), 403);
    await expectError(
      await s.req("PUT", `/api/a/process-roles/${role.id}`, { token: user.token, json: { name: "n" } }),
      403,
    );
    await expectError(await createRole({ key: "has space", name: "X" }), 400);
    await expectError(await createRole({ key: "ok" }), 400);
  });

  test("an Admin renames and deletes a role", async () => {
    const role = await (await createRole({ key: "temp", name: "Temp" }, admin)).json();
    const renamed = await s.req("PUT", `/api/a/process-roles/${role.id}`, {
      token: admin,
      json: { name: "Temporary" },
    });
    expect((await renamed.json()).name).toBe("Temporary");
    expect((await s.req("DELETE", `/api/a/process-roles/${role.id}`, { token: admin })).status).toBe(204);
    await expectError(await s.req("GET", `/api/a/process-roles/${role.id}`, { token: admin }), 404);
  });
});

describe("assigning users", () => {
  let roleId: string;
  beforeAll(async () => {
    roleId = (await (await createRole({ processKey: "loan", key: "reviewer", name: "Reviewer" })).json()).id;
  });

  test("assigns tenant members; the role lists them; assigning twice is harmless", async () => {
    const res = await s.req("POST", `/api/a/process-roles/${roleId}/members`, {
      token: modeler,
      json: { userId: user.id },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).members.map((m: { userId: string }) => m.userId)).toEqual([user.id]);
    expect(
      (await s.req("POST", `/api/a/process-roles/${roleId}/members`, { token: modeler, json: { userId: user.id } }))
        .status,
    ).toBe(201);
    const members = await (await s.req("GET", `/api/a/process-roles/${roleId}/members`, { token: user2.token })).json();
    expect(members).toHaveLength(1);
    expect(members[0]).toMatchObject({ userId: user.id, email: expect.any(String) });
  });

  test("a user who is not a member of the tenant cannot be assigned", async () => {
    await expectError(
      await s.req("POST", `/api/a/process-roles/${roleId}/members`, { token: modeler, json: { userId: outsider.id } }),
      404,
      /not a member/,
    );
  });

  test("exports: roles of a user, with scopes, and users in a role", async () => {
    const tenantWide = (await (await s.req("GET", "/api/a/process-roles", { token: admin })).json()).find(
      (r: { key: string; processKey: string | null }) => r.key === "approver" && r.processKey === null,
    );
    await s.req("POST", `/api/a/process-roles/${tenantWide.id}/members`, {
      token: modeler,
      json: { userId: user2.id },
    });
    const db = s.platform.platformDb;
    expect(processRolesOfUser(db, tenant.id, user.id)).toEqual(["reviewer"]);
    expect(processRolesOfUser(db, tenant.id, user2.id)).toEqual(["approver"]);
    expect(processRoleGrantsOfUser(db, tenant.id, user2.id)).toEqual([{ processKey: null, key: "approver" }]);
    expect(usersInRole(db, tenant.id, "reviewer")).toEqual([user.id]);
    expect(usersInRole(db, tenant.id, "reviewer", "loan")).toEqual([user.id]);
    expect(usersInRole(db, tenant.id, "reviewer", "claim")).toEqual([]);
    expect(usersInRole(db, tenant.id, "approver", "claim")).toEqual([user2.id]);
    expect(processRolesOfUser(db, otherTenant.id, user.id)).toEqual([]);
  });

  test("unassigning removes the role; unassigning again answers 404", async () => {
    const r2 = (await (await createRole({ key: "short", name: "Short" })).json()).id;
    await s.req("POST", `/api/a/process-roles/${r2}/members`, { token: modeler, json: { userId: user.id } });
    expect(processRolesOfUser(s.platform.platformDb, tenant.id, user.id)).toContain("short");
    expect((await s.req("DELETE", `/api/a/process-roles/${r2}/members/${user.id}`, { token: modeler })).status).toBe(
      204,
    );
    expect(processRolesOfUser(s.platform.platformDb, tenant.id, user.id)).not.toContain("short");
    await expectError(await s.req("DELETE", `/api/a/process-roles/${r2}/members/${user.id}`, { token: modeler }), 404);
  });

  test("a plain user cannot assign", async () => {
    await expectError(
      await s.req("POST", `/api/a/process-roles/${roleId}/members`, { token: user.token, json: { userId: user2.id } }),
      403,
    );
  });
});

describe("isolation, API keys and the SA view", () => {
  test("another tenant's role id answers 404 for every operation", async () => {
    const [role] = await (await s.req("GET", "/api/a/process-roles", { token: admin })).json();
    const t = outsider.token;
    await expectError(await s.req("GET", `/api/a/process-roles/${role.id}`, { token: t }), 404);
    await expectError(await s.req("DELETE", `/api/a/process-roles/${role.id}`, { token: t }), 404);
    await expectError(
      await s.req("POST", `/api/a/process-roles/${role.id}/members`, { token: t, json: { userId: outsider.id } }),
      404,
    );
    expect(await (await s.req("GET", "/api/a/process-roles", { token: t })).json()).toEqual([]);
  });

  test("an API key reads roles but cannot define them", async () => {
    const key = await apiKey(s, admin, ["read", "write"]);
    expect((await s.req("GET", "/api/a/process-roles", { apiKey: key.key })).status).toBe(200);
    await expectError(
      await s.req("POST", "/api/a/process-roles", { apiKey: key.key, json: { key: "k", name: "K" } }),
      403,
    );
  });

  test("SA lists a tenant's roles under /admin; a tenant Admin is refused; unknown tenant 404", async () => {
    const res = await s.req("GET", `/api/admin/tenants/${tenant.id}/process-roles`, { token: sa });
    expect(res.status).toBe(200);
    const roles = await res.json();
    expect(roles.length).toBeGreaterThan(2);
    expect(roles.find((r: { key: string }) => r.key === "reviewer").members[0].userId).toBe(user.id);
    expect(
      await (await s.req("GET", `/api/admin/tenants/${otherTenant.id}/process-roles`, { token: sa })).json(),
    ).toEqual([]);
    await expectError(await s.req("GET", `/api/admin/tenants/${tenant.id}/process-roles`, { token: admin }), 403);
    await expectError(
      await s.req("GET", `/api/admin/tenants/${crypto.randomUUID()}/process-roles`, { token: sa }),
      404,
    );
  });
});
