import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { resolveTenantVariable } from "../../app/services/tenant-variables/resolve";

let s: TestServer;
let tenantId: string;
let admin: string, modeler: string, user: string, otherAdmin: string;

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "vars-a", sa);
  tenantId = t.id;
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  modeler = (await userInTenant(s, t, "MODELER", sa)).token;
  user = (await userInTenant(s, t, "USER", sa)).token;
  otherAdmin = (await userInTenant(s, await createTenant(s, "vars-b", sa), "ADMIN", sa)).token;
});
afterAll(() => s.close());

const create = (json: unknown, token = admin) => s.req("POST", "/api/a/variables", { token, json });

describe("tenant variables", () => {
  test("an Admin creates a value and a secret; the secret's value is never returned", async () => {
    const plain = await create({ name: "API_BASE", value: "https://api.example.com" });
    expect(plain.status).toBe(201);
    expect(await plain.json()).toMatchObject({ name: "API_BASE", value: "https://api.example.com", secret: false });
    const secret = await create({ name: "API_TOKEN", value: "s3cr3t-token", secret: true });
    expect(secret.status).toBe(201);
    expect(await secret.json()).toMatchObject({ name: "API_TOKEN", value: null, secret: true });
    for (const token of [admin, modeler]) {
      const listText = await (await s.req("GET", "/api/a/variables", { token })).text();
      expect(listText).not.toContain("s3cr3t-token");
      const one = await (await s.req("GET", "/api/a/variables/API_TOKEN", { token })).json();
      expect(one).toMatchObject({ secret: true, value: null });
    }
  });

  test("each variable names who last wrote it (updatedByUser), the list and one alike", async () => {
    const me = (await (await s.req("GET", "/api/auth/me", { token: admin })).json()) as { id: string; email: string };
    const list = (await (await s.req("GET", "/api/a/variables", { token: modeler })).json()) as {
      name: string;
      updatedBy: string;
      updatedByUser: { id: string; name: string; email: string } | null;
    }[];
    const row = list.find((v) => v.name === "API_BASE");
    expect(row?.updatedBy).toBe(me.id);
    expect(row?.updatedByUser).toMatchObject({ id: me.id, email: me.email });
    expect(row?.updatedByUser?.name.length).toBeGreaterThan(0);
    const one = await (await s.req("GET", "/api/a/variables/API_TOKEN", { token: modeler })).json();
    expect(one.updatedByUser).toMatchObject({ id: me.id });
  });

  test("services resolve secrets for their own use", () => {
    const db = s.platform.tenantDbs.get(tenantId);
    expect(resolveTenantVariable(db, "API_TOKEN")).toBe("s3cr3t-token");
    expect(resolveTenantVariable(db, "NOPE")).toBeNull();
  });

  test("PUT replaces or creates; it never reveals the old secret", async () => {
    const res = await s.req("PUT", "/api/a/variables/API_TOKEN", { token: admin, json: { value: "rotated" } });
    expect(await res.json()).toMatchObject({ secret: true, value: null });
    expect(resolveTenantVariable(s.platform.tenantDbs.get(tenantId), "API_TOKEN")).toBe("rotated");
    const plain = await (
      await s.req("PUT", "/api/a/variables/API_TOKEN", { token: admin, json: { value: "now-public", secret: false } })
    ).json();
    expect(plain).toMatchObject({ secret: false, value: "now-public" });
    expect((await s.req("PUT", "/api/a/variables/NEW_ONE", { token: admin, json: { value: "x" } })).status).toBe(200);
  });

  test("a duplicate name answers 409, a malformed name or missing value 400", async () => {
    await expectError(await create({ name: "API_BASE", value: "again" }), 409);
    await expectError(await create({ name: "1bad name", value: "x" }), 400);
    await expectError(await create({ name: "OK" }), 400);
  });

  test("a Modeler reads but cannot write; a plain user cannot even read", async () => {
    await expectError(await create({ name: "M", value: "x" }, modeler), 403);
    await expectError(await s.req("PUT", "/api/a/variables/API_BASE", { token: modeler, json: { value: "x" } }), 403);
    await expectError(await s.req("DELETE", "/api/a/variables/API_BASE", { token: modeler }), 403);
    await expectError(await s.req("GET", "/api/a/variables", { token: user }), 403);
  });

  test("an API key is refused (no membership)", async () => {
    const key = await apiKey(s, admin, ["read", "write"]);
    await expectError(await s.req("GET", "/api/a/variables", { apiKey: key.key }), 403);
    await expectError(
      await s.req("POST", "/api/a/variables", { apiKey: key.key, json: { name: "K", value: "v" } }),
      403,
    );
  });

  test("another tenant sees none of them", async () => {
    expect(await (await s.req("GET", "/api/a/variables", { token: otherAdmin })).json()).toEqual([]);
    await expectError(await s.req("GET", "/api/a/variables/API_BASE", { token: otherAdmin }), 404);
    await expectError(await s.req("DELETE", "/api/a/variables/API_BASE", { token: otherAdmin }), 404);
  });

  test("delete removes the variable", async () => {
    expect((await s.req("DELETE", "/api/a/variables/NEW_ONE", { token: admin })).status).toBe(204);
    await expectError(await s.req("GET", "/api/a/variables/NEW_ONE", { token: admin }), 404);
  });
});
