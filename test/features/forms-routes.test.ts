import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let modeler: string, modelerId: string, user: string, other: string, admin: string;
const base = "/api/a/definitions/loan/forms";
const schema = { fields: [{ key: "amount", type: "currency", label: "Amount", required: true }] };

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "forms-a", sa);
  const t2 = await createTenant(s, "forms-b", sa);
  const m = await userInTenant(s, t, "MODELER", sa);
  modeler = m.token;
  modelerId = m.id;
  user = (await userInTenant(s, t, "USER", sa)).token;
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  other = (await userInTenant(s, t2, "ADMIN", sa)).token;
});
afterAll(() => s.close());

const create = (key: string, body: Record<string, unknown> = {}, token = modeler, path = base) =>
  s.req("POST", path, { token, json: { key, name: `Form ${key}`, schema, ...body } });

describe("form creation", () => {
  test("creates a form with its first version, saved by the caller", async () => {
    const res = await create("apply");
    expect(res.status).toBe(201);
    const f = await res.json();
    expect(f).toMatchObject({
      key: "apply",
      processKey: "loan",
      name: "Form apply",
      latestVersionNum: 1,
      publishedVersionId: null,
      publishedVersion: null,
    });
    expect(f.latestVersion).toMatchObject({ num: 1, createdBy: modelerId, published: false, schema });
    expect(f.latestVersion.versionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(f.schema).toEqual(schema);
  });

  test("accepts the schema as a JSON string", async () => {
    const res = await create("as-text", { schema: JSON.stringify(schema) });
    expect(res.status).toBe(201);
    expect((await res.json()).schema).toEqual(schema);
  });

  test("accepts a components schema without checking its types", async () => {
    const res = await create("formio", { schema: { components: [{ key: "x", type: "whatever-widget" }] } });
    expect(res.status).toBe(201);
  });

  test("refuses a schema string that is not JSON", async () => {
    await expectError(await create("bad-json", { schema: "{fields: [" }), 400, /not valid JSON/);
  });

  test("refuses a schema that is not an object", async () => {
    await expectError(await create("bad-array", { schema: [1, 2] }), 400, /JSON object/);
    await expectError(await create("bad-missing", { schema: undefined }), 400, /schema/);
  });

  test("refuses an unknown field type naming it and listing the accepted types", async () => {
    const body = await expectError(
      await create("bad-type", {
        schema: {
          fields: [
            { key: "a", type: "text" },
            { key: "colour", type: "rainbow" },
          ],
        },
      }),
      400,
    );
    expect(body.message).toContain("'rainbow'");
    expect(body.message).toContain("colour");
    for (const t of ["text", "textarea", "currency", "multiselect", "file", "table"]) expect(body.message).toContain(t);
  });

  test("refuses a field without a type, a duplicated key and a malformed visibleIf", async () => {
    await expectError(
      await create("no-type", { schema: { fields: [{ key: "a" }] } }),
      400,
      /declares no type; accepted types: text/,
    );
    await expectError(
      await create("dup", {
        schema: {
          fields: [
            { key: "a", type: "text" },
            { key: "a", type: "number" },
          ],
        },
      }),
      400,
      /used twice/,
    );
    await expectError(
      await create("bad-cond", { schema: { fields: [{ key: "a", type: "text", visibleIf: "kind = " }] } }),
      400,
      /FEEL/,
    );
  });

  test("refuses an unknown type nested in a section or a table column", async () => {
    const section = { fields: [{ type: "section", label: "S", fields: [{ key: "n", type: "nope" }] }] };
    await expectError(await create("nested", { schema: section }), 400, /'nope'/);
    const table = { fields: [{ key: "items", type: "table", columns: [{ key: "q", type: "qty" }] }] };
    await expectError(await create("table", { schema: table }), 400, /'qty'/);
  });

  test("refuses a duplicate key in the same process with 409, allows it in another process", async () => {
    expect((await create("dup-key")).status).toBe(201);
    await expectError(await create("dup-key"), 409, /already exists/);
    expect((await create("dup-key", {}, modeler, "/api/a/definitions/other/forms")).status).toBe(201);
  });

  test("refuses a key with a slash or spaces", async () => {
    await expectError(await create("a b"), 400);
  });
});

describe("versions and publishing", () => {
  test("saving creates a new version, lists versions newest first, reads them by number and id", async () => {
    await create("v");
    const saved = await s.req("PUT", `${base}/v`, {
      token: modeler,
      json: { name: "Renamed", schema: { fields: [{ key: "b", type: "text" }] } },
    });
    expect(saved.status).toBe(200);
    const f = await saved.json();
    expect(f).toMatchObject({ name: "Renamed", latestVersionNum: 2 });
    const list = await (await s.req("GET", `${base}/v/versions`, { token: user })).json();
    expect(list.map((v: { num: number }) => v.num)).toEqual([2, 1]);
    expect(list[0].createdBy).toBe(modelerId);
    const one = await (await s.req("GET", `${base}/v/versions/1`, { token: user })).json();
    expect(one.schema).toEqual(schema);
    const byId = await s.req("GET", `${base}/v/versions/by-id/${list[1].versionId}`, { token: user });
    expect((await byId.json()).num).toBe(1);
    await expectError(await s.req("GET", `${base}/v/versions/9`, { token: user }), 404);
    await expectError(await s.req("GET", `${base}/v/versions/by-id/${crypto.randomUUID()}`, { token: user }), 404);
  });

  test("a version id of another form is not found through this form", async () => {
    const a = await (await create("va")).json();
    await create("vb");
    await expectError(await s.req("GET", `${base}/vb/versions/by-id/${a.latestVersionId}`, { token: user }), 404);
    await expectError(
      await s.req("POST", `${base}/vb/publish`, { token: modeler, json: { versionId: a.latestVersionId } }),
      404,
    );
  });

  test("publish without a version publishes the latest; with one, that version", async () => {
    const f = await (await create("p")).json();
    await s.req("PUT", `${base}/p`, { token: modeler, json: { schema } });
    const latest = await s.req("POST", `${base}/p/publish`, { token: modeler, json: {} });
    expect(latest.status).toBe(200);
    expect((await latest.json()).publishedVersionNum).toBe(2);
    const first = await (
      await s.req("POST", `${base}/p/publish`, { token: modeler, json: { versionId: f.latestVersionId } })
    ).json();
    expect(first).toMatchObject({ publishedVersionNum: 1, latestVersionNum: 2 });
    expect(first.publishedVersion.num).toBe(1);
    const versions = await (await s.req("GET", `${base}/p/versions`, { token: user })).json();
    expect(versions.map((v: { published: boolean }) => v.published)).toEqual([false, true]);
  });

  test("publish with no body at all publishes the latest", async () => {
    await create("nobody");
    const res = await s.req("POST", `${base}/nobody/publish`, { token: modeler });
    expect(res.status).toBe(200);
    expect((await res.json()).publishedVersionNum).toBe(1);
  });

  test("saving with a bad schema writes no version", async () => {
    await create("keep");
    await expectError(
      await s.req("PUT", `${base}/keep`, {
        token: modeler,
        json: { schema: { fields: [{ key: "x", type: "bogus" }] } },
      }),
      400,
      /bogus/,
    );
    const versions = await (await s.req("GET", `${base}/keep/versions`, { token: user })).json();
    expect(versions).toHaveLength(1);
  });
});

describe("listing, deleting and access", () => {
  test("lists the forms of a process only", async () => {
    await create("listed", {}, modeler, "/api/a/definitions/listing/forms");
    const rows = await (await s.req("GET", "/api/a/definitions/listing/forms", { token: user })).json();
    expect(rows.map((r: { key: string }) => r.key)).toEqual(["listed"]);
  });

  test("deletes a form and its versions", async () => {
    const f = await (await create("gone")).json();
    expect((await s.req("DELETE", `${base}/gone`, { token: admin })).status).toBe(204);
    await expectError(await s.req("GET", `${base}/gone`, { token: user }), 404);
    await expectError(await s.req("GET", `${base}/gone/versions/by-id/${f.latestVersionId}`, { token: user }), 404);
    await expectError(await s.req("DELETE", `${base}/gone`, { token: admin }), 404);
  });

  test("a plain user reads forms but cannot create, save, publish or delete them", async () => {
    await create("ro");
    expect((await s.req("GET", `${base}/ro`, { token: user })).status).toBe(200);
    await expectError(await create("by-user", {}, user), 403);
    await expectError(await s.req("PUT", `${base}/ro`, { token: user, json: { schema } }), 403);
    await expectError(await s.req("POST", `${base}/ro/publish`, { token: user, json: {} }), 403);
    await expectError(await s.req("DELETE", `${base}/ro`, { token: user }), 403);
  });

  test("another tenant does not see the forms", async () => {
    await create("mine");
    await expectError(await s.req("GET", `${base}/mine`, { token: other }), 404);
    expect(await (await s.req("GET", base, { token: other })).json()).toEqual([]);
    await expectError(await s.req("PUT", `${base}/mine`, { token: other, json: { schema } }), 404);
  });

  test("an API key reads with the read scope and is refused writes (no Modeler membership)", async () => {
    const key = await apiKey(s, admin, ["read", "write"]);
    expect((await s.req("GET", base, { apiKey: key.key })).status).toBe(200);
    await expectError(await s.req("POST", base, { apiKey: key.key, json: { key: "k", name: "K", schema } }), 403);
  });

  test("there is no /a/forms/{key} route", async () => {
    await create("apply2");
    await expectError(await s.req("GET", "/api/a/forms/apply2", { token: admin }), 404);
    await expectError(await s.req("GET", "/api/a/forms/anything", { token: admin }), 404);
  });
});
