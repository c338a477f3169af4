import { beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { s, mgr, user, cities, base, post, list, useCmsRecordsScenario } from "./cms-records.setup";

useCmsRecordsScenario();

describe("CMS collections", () => {
  test("create answers the pinned body with the normalized fields", async () => {
    const res = await s.req("POST", "/api/a/cms/collections", {
      token: mgr,
      json: { name: "pinned", fields: [{ name: "title", type: "text", required: true }], confidentiality: "SECRET" },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      name: "pinned",
      confidentiality: "SECRET",
      fields: [{ name: "title", type: "text", required: true, unique: false }],
    });
    expect(typeof body.id).toBe("string");
  });

  test("invalid field definitions answer 400 naming each problem", async () => {
    const res = await s.req("POST", "/api/a/cms/collections", {
      token: mgr,
      json: {
        name: "bad",
        confidentiality: "PUBLIC",
        fields: [
          { name: "x", type: "colour" },
          { name: "s", type: "select" },
          { name: "r", type: "reference", collectionId: "nope" },
          { name: "x", type: "text" },
        ],
      },
    });
    const body = (await expectError(res, 400)) as { fieldErrors: { field: string }[] };
    expect(body.fieldErrors.map((e) => e.field).sort()).toEqual([
      "fields[0].type",
      "fields[1].options",
      "fields[2].collectionId",
      "fields[3].name",
    ]);
  });

  test("an unknown confidentiality or a duplicate name is refused", async () => {
    await expectError(
      await s.req("POST", "/api/a/cms/collections", {
        token: mgr,
        json: { name: "x", fields: [{ name: "a", type: "text" }], confidentiality: "CONFIDENTIAL" },
      }),
      400,
    );
    await expectError(
      await s.req("POST", "/api/a/cms/collections", {
        token: mgr,
        json: { name: "people", fields: [{ name: "a", type: "text" }], confidentiality: "PUBLIC" },
      }),
      409,
    );
  });

  test("a collection referenced by another cannot be deleted", async () => {
    await expectError(await s.req("DELETE", `/api/a/cms/collections/${cities}`, { token: mgr }), 409, /people/);
  });
});

describe("CMS record values", () => {
  test("a valid record of every type is stored and answered as {id, values}", async () => {
    const city = await s.req("POST", `/api/a/cms/collections/${cities}/records`, {
      token: mgr,
      json: { values: { name: "Lisbon" } },
    });
    const cityId = ((await city.json()) as { id: string }).id;
    const values = {
      name: "Ana",
      bio: "long text",
      age: 30,
      score: 9.5,
      active: true,
      born: "1994-02-28",
      seen: "2024-05-01T12:00:00+02:00",
      email: "ana@example.com",
      site: "https://example.com",
      level: "senior",
      tags: ["a", "c"],
      city: cityId,
      extra: { any: [1, 2] },
    };
    const res = await post(values);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { id: string; values: Record<string, unknown> };
    expect(body.values).toEqual({ ...values, seen: "2024-05-01T10:00:00.000Z" });
  });

  test("wrong values answer 400 with one fieldError per field", async () => {
    const res = await post({
      age: 1.5,
      score: "x",
      active: "yes",
      born: "2023-02-30",
      seen: "yesterday",
      email: "nope",
      site: "ftp://x",
      level: "boss",
      tags: ["z"],
      city: "no-such",
      nope: 1,
    });
    const body = (await expectError(res, 400)) as { fieldErrors: { field: string }[] };
    expect(body.fieldErrors.map((e) => e.field).sort()).toEqual(
      ["active", "age", "born", "city", "email", "level", "name", "nope", "score", "seen", "site", "tags"]
        .map((f) => `values.${f}`)
        .sort(),
    );
  });

  test("a unique field refuses a value already used", async () => {
    await expectError(await post({ name: "Dup", email: "ana@example.com" }), 400, /invalid/);
  });

  test("update replaces the values; delete removes; both answer 404 for an unknown record", async () => {
    const created = (await (await post({ name: "Temp", age: 1 })).json()) as { id: string };
    const upd = await s.req("PUT", `${base()}/${created.id}`, { token: mgr, json: { values: { name: "Temp2" } } });
    expect(upd.status).toBe(200);
    expect(((await upd.json()) as { values: unknown }).values).toEqual({ name: "Temp2" });
    expect((await s.req("DELETE", `${base()}/${created.id}`, { token: mgr })).status).toBe(204);
    await expectError(await s.req("GET", `${base()}/${created.id}`, { token: mgr }), 404);
    await expectError(
      await s.req("PUT", `${base()}/${created.id}`, { token: mgr, json: { values: { name: "x" } } }),
      404,
    );
    await expectError(await s.req("DELETE", `${base()}/${created.id}`, { token: mgr }), 404);
  });
});

describe("CMS record queries", () => {
  beforeAll(async () => {
    const recs = Array.from({ length: 45 }, (_, i) => ({
      name: `P${String(i).padStart(2, "0")}`,
      age: i,
      level: i % 3 === 0 ? "junior" : "senior",
      tags: i % 2 ? ["b"] : ["a", "b"],
      active: i % 5 === 0,
    }));
    const res = await s.req("POST", `${base()}/bulk`, { token: mgr, json: { records: recs } });
    expect(res.status).toBe(200);
  });

  test("pages default to size 20", async () => {
    const page = await list("");
    expect(page.size).toBe(20);
    expect(page.content.length).toBe(20);
    expect(page.totalElements).toBe(46);
    expect(page.totalPages).toBe(3);
  });

  test("filters combine equality, ranges, multiselect membership and booleans", async () => {
    expect((await list("filter.level=junior")).totalElements).toBe(15);
    expect((await list("filter.age.gte=10&filter.age.lt=20")).totalElements).toBe(10);
    expect((await list("filter.tags=a&filter.level=junior&size=100")).content.map((r) => r.values.age)).toEqual([
      0, 6, 12, 18, 24, 30, 36, 42,
    ]);
    expect((await list("filter.active=true")).totalElements).toBe(10);
    expect((await list("filter.name.contains=P1")).totalElements).toBe(10);
    expect((await list("filter.age.in=1,2,3")).totalElements).toBe(3);
  });

  test("sort by a field in both directions, records without the value last", async () => {
    expect((await post({ name: "NoAge" })).status).toBe(201);
    const desc = await list("sort=age,desc&size=100");
    expect(desc.content.slice(0, 3).map((r) => r.values.age)).toEqual([44, 43, 42]);
    expect(desc.content.at(-1)!.values.name).toBe("NoAge");
    const asc = await list("sort=age,asc&size=100");
    expect(asc.content[0].values.age).toBe(0);
    expect(asc.content.at(-1)!.values.name).toBe("NoAge");
  });

  test("fields= projects the values", async () => {
    const page = await list("filter.age=5&fields=name");
    expect(page.content[0].values).toEqual({ name: "P05" });
  });

  test("filters on unknown or unindexed fields, bad operands and bad sorts answer 400", async () => {
    for (const qs of [
      "filter.nope=1",
      "filter.bio=x",
      "filter.age=abc",
      "filter.age.near=1",
      "sort=tags,asc",
      "sort=age,up",
      "fields=nope",
    ]) {
      await expectError(await s.req("GET", `${base()}?${qs}`, { token: user }), 400);
    }
  });
});
