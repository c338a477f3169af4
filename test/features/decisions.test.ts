import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, saToken, userInTenant } from "../harness/fixtures";

const DISCOUNT = readFileSync(join(import.meta.dir, "../fixtures/dmn/discount.dmn"), "utf8");

let s: TestServer;
let sa: string;
let modeler: Awaited<ReturnType<typeof userInTenant>>;
let user: Awaited<ReturnType<typeof userInTenant>>;
let manager: Awaited<ReturnType<typeof userInTenant>>;
let otherAdmin: Awaited<ReturnType<typeof userInTenant>>;

function dmnForm(xml: string, name = "discount.dmn") {
  const fd = new FormData();
  fd.append("file", new File([xml], name, { type: "application/xml" }));
  return fd;
}

beforeAll(async () => {
  s = await startTestServer();
  sa = await saToken(s);
  const t = await createTenant(s, "dmn-a", sa);
  const other = await createTenant(s, "dmn-b", sa);
  modeler = await userInTenant(s, t, "MODELER", sa);
  user = await userInTenant(s, t, "USER", sa);
  manager = await userInTenant(s, t, "MANAGER", sa);
  otherAdmin = await userInTenant(s, other, "ADMIN", sa);
});
afterAll(() => s.close());

describe("deploying and evaluating decisions", () => {
  test("deploys a .dmn file (201 with each decision and its version) and lists it", async () => {
    const res = await s.req("POST", "/api/a/decisions", { token: modeler.token, body: dmnForm(DISCOUNT) });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ decisions: [{ key: "discount", name: "Discount", version: 1 }] });
    const list = await (await s.req("GET", "/api/a/decisions", { token: modeler.token })).json();
    expect(list.map((d: { key: string; version: number }) => [d.key, d.version])).toEqual([["discount", 1]]);
  });

  test("evaluate gives the single output's value, the matched rule, and null when nothing matches", async () => {
    const hit = await s.req("POST", "/api/a/decisions/discount/evaluate", {
      token: user.token,
      json: { variables: { customerType: "GOLD", amount: 1200 } },
    });
    expect(hit.status).toBe(200);
    expect(await hit.json()).toEqual({ result: 0.15, matchedRules: ["r_gold_big"] });
    const none = await s.req("POST", "/api/a/decisions/discount/evaluate", {
      token: user.token,
      json: { variables: { customerType: "BRONZE", amount: 1 } },
    });
    expect(await none.json()).toEqual({ result: null, matchedRules: [] });
  });

  test("a UNIQUE violation is a 422 naming the decision", async () => {
    const res = await s.req("POST", "/api/a/decisions/discount/evaluate", {
      token: user.token,
      json: { variables: { customerType: "SILVER", amount: 9000 } },
    });
    await expectError(res, 422, /Discount/);
  });

  test("detail shows the table, the XML and the versions", async () => {
    const d = await (await s.req("GET", "/api/a/decisions/discount", { token: modeler.token })).json();
    expect(d.table.hitPolicy).toBe("UNIQUE");
    expect(d.table.rules.map((r: { id: string }) => r.id)).toContain("r_silver");
    expect(d.xml).toContain("discountTable");
    expect(d.versions.map((v: { version: number }) => v.version)).toEqual([1]);
  });

  test("PUT with a JSON edit of the rules creates a new version that evaluates the new rules", async () => {
    const d = await (await s.req("GET", "/api/a/decisions/discount", { token: modeler.token })).json();
    const table = { ...d.table, rules: d.table.rules.filter((r: { id: string }) => r.id !== "r_overlap") };
    table.rules = table.rules.map((r: { id: string; outputEntries: string[] }) =>
      r.id === "r_silver" ? { ...r, outputEntries: ["0.06"] } : r,
    );
    const res = await s.req("PUT", "/api/a/decisions/discount", { token: modeler.token, json: { table } });
    expect(res.status).toBe(200);
    expect((await res.json()).version).toBe(2);
    const ev = await (
      await s.req("POST", "/api/a/decisions/discount/evaluate", {
        token: user.token,
        json: { variables: { customerType: "SILVER", amount: 9000 } },
      })
    ).json();
    expect(ev).toEqual({ result: 0.06, matchedRules: ["r_silver"] });
  });

  test("PUT with an invalid rule refuses with 400 and keeps the version", async () => {
    const d = await (await s.req("GET", "/api/a/decisions/discount", { token: modeler.token })).json();
    const table = { ...d.table, rules: [{ ...d.table.rules[0], inputEntries: ["> > >", "-"] }] };
    await expectError(await s.req("PUT", "/api/a/decisions/discount", { token: modeler.token, json: { table } }), 400);
    const after = await (await s.req("GET", "/api/a/decisions/discount", { token: modeler.token })).json();
    expect(after.version).toBe(2);
  });

  test("PUT with a new file creates the next version", async () => {
    const res = await s.req("PUT", "/api/a/decisions/discount", { token: modeler.token, body: dmnForm(DISCOUNT) });
    expect(res.status).toBe(200);
    expect((await res.json()).version).toBe(3);
  });

  test("an invalid DMN file answers 400 naming the problem, and nothing is deployed", async () => {
    const broken = DISCOUNT.replace(
      '<inputEntry id="e1"><text>"GOLD"</text>',
      '<inputEntry id="e1"><text>"GOLD" +</text>',
    ).replace('id="discount"', 'id="brokenDecision"');
    const res = await s.req("POST", "/api/a/decisions", { token: modeler.token, body: dmnForm(broken) });
    await expectError(res, 400, /e1|brokenDecision/);
    await expectError(await s.req("GET", "/api/a/decisions/brokenDecision", { token: modeler.token }), 404);
    await expectError(
      await s.req("POST", "/api/a/decisions", { token: modeler.token, body: dmnForm("<not-dmn/>") }),
      400,
    );
    await expectError(await s.req("POST", "/api/a/decisions", { token: modeler.token, json: { file: "x" } }), 415);
  });

  test("a TCK model (DMN 1.5 with a requirement graph) deploys and evaluates", async () => {
    const dir = join(import.meta.dir, "../fixtures/dmn/third-party");
    const xml = readFileSync(join(dir, "0004-simpletable-U.dmn"), "utf8");
    const res = await s.req("POST", "/api/a/decisions", { token: modeler.token, body: dmnForm(xml, "0004.dmn") });
    expect(res.status).toBe(201);
    const { decisions } = await res.json();
    expect(decisions.length).toBeGreaterThan(0);
  });

  test("DELETE removes every version; the key then answers 404", async () => {
    await s.req("POST", "/api/a/decisions", {
      token: modeler.token,
      body: dmnForm(DISCOUNT.replaceAll('"discount"', '"temp"')),
    });
    expect((await s.req("DELETE", "/api/a/decisions/temp", { token: modeler.token })).status).toBe(204);
    await expectError(
      await s.req("POST", "/api/a/decisions/temp/evaluate", { token: user.token, json: { variables: {} } }),
      404,
    );
    await expectError(await s.req("DELETE", "/api/a/decisions/temp", { token: modeler.token }), 404);
  });
});

describe("decision access", () => {
  test("design routes need Modeler or Admin; USER and MANAGER get 403; evaluate is open to any role", async () => {
    for (const who of [user, manager]) {
      await expectError(await s.req("GET", "/api/a/decisions", { token: who.token }), 403);
      await expectError(await s.req("POST", "/api/a/decisions", { token: who.token, body: dmnForm(DISCOUNT) }), 403);
      await expectError(await s.req("DELETE", "/api/a/decisions/discount", { token: who.token }), 403);
    }
    const res = await s.req("POST", "/api/a/decisions/discount/evaluate", {
      token: manager.token,
      json: { variables: { customerType: "GOLD", amount: 1 } },
    });
    expect(res.status).toBe(200);
  });

  test("an API key with write scope may evaluate but not deploy", async () => {
    const admin = await saTenantToken(s, { slug: "dmn-a" });
    const key = await apiKey(s, admin, ["read", "write"]);
    expect(
      (await s.req("POST", "/api/a/decisions/discount/evaluate", { apiKey: key.key, json: { variables: {} } })).status,
    ).toBe(200);
    await expectError(await s.req("POST", "/api/a/decisions", { apiKey: key.key, body: dmnForm(DISCOUNT) }), 403);
  });

  test("another tenant's decisions answer 404, and the same key may exist in both", async () => {
    await expectError(await s.req("GET", "/api/a/decisions/discount", { token: otherAdmin.token }), 404);
    await expectError(
      await s.req("POST", "/api/a/decisions/discount/evaluate", { token: otherAdmin.token, json: { variables: {} } }),
      404,
    );
    const res = await s.req("POST", "/api/a/decisions", { token: otherAdmin.token, body: dmnForm(DISCOUNT) });
    expect((await res.json()).decisions[0].version).toBe(1);
  });
});

describe("global DMN templates", () => {
  test("SA creates templates; new tenants receive a tagged copy; from-template clones again", async () => {
    const tpl = DISCOUNT.replaceAll('"discount"', '"shipping"').replace('name="Discount"', 'name="Shipping"');
    const created = await s.req("POST", "/api/admin/dmn-templates", {
      token: sa,
      json: { key: "shipping-tpl", name: "Shipping", xml: tpl },
    });
    expect(created.status).toBe(201);
    await expectError(
      await s.req("POST", "/api/admin/dmn-templates", {
        token: sa,
        json: { key: "shipping-tpl", name: "Again", xml: tpl },
      }),
      409,
    );
    await expectError(
      await s.req("POST", "/api/admin/dmn-templates", { token: sa, json: { key: "bad", name: "Bad", xml: "<nope/>" } }),
      400,
    );

    const t = await createTenant(s, "dmn-c", sa);
    const admin = await userInTenant(s, t, "ADMIN", sa);
    const list = await (await s.req("GET", "/api/a/decisions", { token: admin.token })).json();
    expect(list).toEqual([expect.objectContaining({ key: "shipping", version: 1, sourceTemplate: "shipping-tpl" })]);
    const rows = s.platform.engineSqlite.query("select tenant_id from decisions where key = 'shipping'").all() as {
      tenant_id: string;
    }[];
    expect(rows.map((r) => r.tenant_id)).toEqual([t.id]);

    const clone = await s.req("POST", "/api/a/decisions/from-template/shipping-tpl", { token: admin.token });
    expect(clone.status).toBe(201);
    expect((await clone.json()).decisions[0].version).toBe(2);
    await expectError(await s.req("POST", "/api/a/decisions/from-template/missing", { token: admin.token }), 404);
    // A Modeler (here an Admin) lists what may be copied, without the XML; a USER may not.
    const offered = await (await s.req("GET", "/api/a/decision-templates", { token: admin.token })).json();
    expect(offered).toContainEqual({
      key: "shipping-tpl",
      name: "Shipping",
      description: null,
      updatedAt: expect.any(String),
    });
    expect(JSON.stringify(offered)).not.toContain("<definitions");
    const user = await userInTenant(s, t, "USER", sa);
    await expectError(await s.req("GET", "/api/a/decision-templates", { token: user.token }), 403);
  });

  test("SA updates and deletes templates; a tenant Admin gets 403", async () => {
    const upd = await s.req("PUT", "/api/admin/dmn-templates/shipping-tpl", {
      token: sa,
      json: { name: "Shipping v2" },
    });
    expect((await upd.json()).name).toBe("Shipping v2");
    await expectError(await s.req("GET", "/api/admin/dmn-templates", { token: otherAdmin.token }), 403);
    await expectError(await s.req("POST", "/api/admin/dmn-templates", { token: otherAdmin.token, json: {} }), 403);
    expect((await s.req("DELETE", "/api/admin/dmn-templates/shipping-tpl", { token: sa })).status).toBe(204);
    await expectError(await s.req("DELETE", "/api/admin/dmn-templates/shipping-tpl", { token: sa }), 404);
  });
});
