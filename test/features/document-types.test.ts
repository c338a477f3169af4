import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
const tok: Record<string, string> = {};
let key = "";

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "doc-types", sa);
  const t2 = await createTenant(s, "doc-types-2", sa);
  for (const role of ["ADMIN", "MODELER", "MANAGER", "USER"] as const)
    tok[role] = (await userInTenant(s, t, role, sa)).token;
  tok.SA = await saTenantToken(s, t);
  tok.OTHER = (await userInTenant(s, t2, "MODELER", sa)).token;
  key = (await apiKey(s, tok.ADMIN, ["read", "write"])).key;
});
afterAll(() => s.close());

const create = (who: string, body: unknown, global = false) =>
  s.req("POST", `/api/a/document-types${global ? "?isGlobal=true" : ""}`, { token: tok[who], json: body });

describe("document types", () => {
  let own = "";
  let global = "";

  test("a Modeler creates a tenant type; the answer carries id, name, description, status, isGlobal", async () => {
    const res = await create("MODELER", { name: "Contract", description: "signed contracts" });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: "Contract",
      description: "signed contracts",
      status: "ACTIVE",
      isGlobal: false,
      processKey: null,
    });
    own = body.id as string;
  });

  test("Manager, User and API keys cannot create; a duplicate name answers 409; a bad status 400", async () => {
    await expectError(await create("MANAGER", { name: "X" }), 403);
    await expectError(await create("USER", { name: "X" }), 403);
    await expectError(await s.req("POST", "/api/a/document-types", { apiKey: key, json: { name: "X" } }), 403);
    await expectError(await create("MODELER", { name: "Contract" }), 409);
    await expectError(await create("MODELER", { name: "Y", status: "MAYBE" }), 400);
  });

  test("only SUPER_ADMIN creates a global type; tenant ADMIN and MODELER get 403", async () => {
    await expectError(await create("ADMIN", { name: "ID card" }, true), 403, /SUPER_ADMIN/);
    await expectError(await create("MODELER", { name: "ID card" }, true), 403);
    const res = await create("SA", { name: "ID card", processKey: "onboarding" }, true);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; isGlobal: boolean };
    expect(body.isGlobal).toBe(true);
    global = body.id;
  });

  test("listing needs Manager or Modeler; isGlobal=true&processKey= is open to every member", async () => {
    const mgr = (await (await s.req("GET", "/api/a/document-types", { token: tok.MANAGER })).json()) as {
      name: string;
    }[];
    expect(mgr.map((d) => d.name).sort()).toEqual(["Contract", "ID card"]);
    await expectError(await s.req("GET", "/api/a/document-types", { token: tok.USER }), 403);
    const g = await s.req("GET", "/api/a/document-types?isGlobal=true&processKey=onboarding", { token: tok.USER });
    expect(((await g.json()) as { id: string }[]).map((d) => d.id)).toEqual([global]);
    const none = await s.req("GET", "/api/a/document-types?isGlobal=true&processKey=other", { token: tok.USER });
    expect(await none.json()).toEqual([]);
  });

  test("global types are shared by every tenant, tenant types are not", async () => {
    const other = (await (await s.req("GET", "/api/a/document-types", { token: tok.OTHER })).json()) as {
      id: string;
    }[];
    expect(other.map((d) => d.id)).toEqual([global]);
    await expectError(
      await s.req("PUT", `/api/a/document-types/${own}`, { token: tok.OTHER, json: { name: "mine" } }),
      404,
    );
  });

  test("a Modeler updates name, description and status of a tenant type", async () => {
    const res = await s.req("PUT", `/api/a/document-types/${own}`, {
      token: tok.MODELER,
      json: { name: "Contracts", status: "INACTIVE", description: null },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id: own, name: "Contracts", status: "INACTIVE", description: null });
  });

  test("a non-SA writing a global type gets 403; SUPER_ADMIN may", async () => {
    await expectError(
      await s.req("PUT", `/api/a/document-types/${global}`, { token: tok.ADMIN, json: { name: "x" } }),
      403,
    );
    await expectError(await s.req("DELETE", `/api/a/document-types/${global}`, { token: tok.MODELER }), 403);
    expect(
      (await s.req("PUT", `/api/a/document-types/${global}`, { token: tok.SA, json: { status: "INACTIVE" } })).status,
    ).toBe(200);
    expect((await s.req("DELETE", `/api/a/document-types/${global}`, { token: tok.SA })).status).toBe(204);
  });

  test("a Modeler deletes a tenant type; an unknown id answers 404", async () => {
    expect((await s.req("DELETE", `/api/a/document-types/${own}`, { token: tok.MODELER })).status).toBe(204);
    await expectError(await s.req("DELETE", `/api/a/document-types/${own}`, { token: tok.MODELER }), 404);
  });
});
