import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { loadConfig } from "../../app/platform/config";
import { createPlatform } from "../../app/platform/platform";
import { httpDepsOf } from "../../app/platform/http-deps";
import { createApp } from "../../app/http/app";
import { runMigrations } from "../../db/migrate";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";

let s: TestServer;
let sa: string;
let failMigrations = false;

beforeAll(async () => {
  s = await startTestServer({
    tenantMigrator: (db: Database) => {
      if (failMigrations) throw new Error("injected migration failure");
      runMigrations(db, "tenant");
    },
  });
  sa = await saToken(s);
});
afterAll(() => s.close());

async function tenantStatus(id: string) {
  return (await (await s.req("GET", `/api/admin/tenants/${id}`, { token: sa })).json()) as {
    status: string;
    errorMessage?: string;
  };
}

describe("tenant lifecycle", () => {
  test("POST answers 202 CREATING at once; provisioning then makes it ACTIVE", async () => {
    const res = await s.req("POST", "/api/admin/tenants", {
      token: sa,
      json: { slug: "lifecycle", name: "Lifecycle" },
    });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toEqual({
      id: expect.any(String),
      slug: "lifecycle",
      name: "Lifecycle",
      status: "CREATING",
      degraded: false,
    });
    await s.platform.idle();
    expect((await tenantStatus(body.id)).status).toBe("ACTIVE");
  });

  test("a duplicate slug answers 409 and a malformed slug 400", async () => {
    await createTenant(s, "dup", sa);
    await expectError(
      await s.req("POST", "/api/admin/tenants", { token: sa, json: { slug: "dup", name: "Again" } }),
      409,
    );
    await expectError(
      await s.req("POST", "/api/admin/tenants", { token: sa, json: { slug: "Not A Slug!", name: "X" } }),
      400,
    );
  });

  test("suspend refuses tenant requests with 403; reactivate restores them", async () => {
    const t = await createTenant(s, "pausable", sa);
    const admin = await userInTenant(s, t, "ADMIN", sa);
    expect((await s.req("GET", "/api/a/api-keys", { token: admin.token })).status).toBe(200);
    const susp = await s.req("PATCH", `/api/admin/tenants/${t.id}/suspend`, { token: sa });
    expect((await susp.json()).status).toBe("SUSPENDED");
    await expectError(await s.req("GET", "/api/a/api-keys", { token: admin.token }), 403, /suspended/);
    await expectError(await s.req("PATCH", `/api/admin/tenants/${t.id}/suspend`, { token: sa }), 409);
    const re = await s.req("PATCH", `/api/admin/tenants/${t.id}/reactivate`, { token: sa });
    expect((await re.json()).status).toBe("ACTIVE");
    expect((await s.req("GET", "/api/a/api-keys", { token: admin.token })).status).toBe(200);
    await expectError(await s.req("PATCH", `/api/admin/tenants/${t.id}/reactivate`, { token: sa }), 409);
  });

  test("a failing provisioning migration leaves the tenant FAILED with its error; requests answer 503; the sweep recovers it", async () => {
    failMigrations = true;
    const res = await s.req("POST", "/api/admin/tenants", { token: sa, json: { slug: "fragile", name: "Fragile" } });
    const t = await res.json();
    await s.platform.idle();
    const failed = await tenantStatus(t.id);
    expect(failed.status).toBe("FAILED");
    expect(failed.errorMessage).toContain("injected migration failure");
    // A SUPER_ADMIN can still select it, but nothing of the tenant is served.
    const sel = await s.req("POST", "/api/auth/select-tenant", { token: sa, json: { tenantSlug: "fragile" } });
    await expectError(sel, 503);
    failMigrations = false;
    const { recovered } = await s.platform.sweep();
    expect(recovered).toContain(t.id);
    expect((await tenantStatus(t.id)).status).toBe("ACTIVE");
    const admin = await userInTenant(s, t, "ADMIN", sa);
    expect((await s.req("GET", "/api/a/api-keys", { token: admin.token })).status).toBe(200);
  });

  test("an ACTIVE tenant whose migration fails at the next process start is degraded (503, nothing read) until the sweep succeeds", async () => {
    const t = await createTenant(s, "degraded", sa);
    const admin = await userInTenant(s, t, "ADMIN", sa);
    // A second process on the same data folder, whose tenant migration fails on first use.
    let broken = true;
    const platform2 = createPlatform({
      config: loadConfig({ DATA_DIR: s.dataDir, JWT_SECRET: "test-secret-with-enough-entropy-0123456789" }),
      clock: s.clock,
      log: () => {},
      tenantMigrator: (db: Database) => {
        if (broken) throw new Error("schema upgrade failed");
        runMigrations(db, "tenant");
      },
    });
    const app2 = createApp(httpDepsOf(platform2));
    const call = () =>
      app2.request("/api/a/api-keys", { headers: { authorization: `Bearer ${admin.token}` } }, { ip: "1.1.1.1" });
    try {
      const first = await expectError(await call(), 503, /migration failed/);
      // The client learns that the migration failed, not how: the SQL error stays in the log and the SA's view.
      expect(String(first.message)).not.toContain("schema upgrade failed");
      const asSa = await app2.request(
        `/api/admin/tenants/${t.id}`,
        { headers: { authorization: `Bearer ${sa}` } },
        { ip: "1.1.1.1" },
      );
      expect(await asSa.json()).toMatchObject({
        status: "ACTIVE",
        degraded: true,
        errorMessage: expect.stringContaining("schema upgrade failed"),
      });
      // Attempted once per process start: a second request does not retry, it answers 503 at once.
      broken = false;
      await expectError(await call(), 503);
      const { recovered } = await platform2.sweep();
      expect(recovered).toEqual([t.id]);
      expect((await call()).status).toBe(200);
      const healed = await app2.request(
        `/api/admin/tenants/${t.id}`,
        { headers: { authorization: `Bearer ${sa}` } },
        { ip: "1.1.1.1" },
      );
      expect(await healed.json()).toMatchObject({ status: "ACTIVE", degraded: false });
    } finally {
      platform2.tenantDbs.closeAll();
      platform2.platformSqlite.close();
      platform2.engineSqlite.close();
    }
  });

  test("provisioning runs the registered seeders; a failing seeder fails the tenant", async () => {
    const seen: string[] = [];
    s.platform.seeders.push((id) => {
      seen.push(id);
      if (seen.length === 1) throw new Error("seed exploded");
    });
    try {
      const res = await s.req("POST", "/api/admin/tenants", { token: sa, json: { slug: "seeded", name: "Seeded" } });
      const t = await res.json();
      await s.platform.idle();
      expect(seen).toEqual([t.id]);
      expect((await tenantStatus(t.id)).errorMessage).toBe("seed exploded");
      await s.platform.sweep();
      expect((await tenantStatus(t.id)).status).toBe("ACTIVE");
    } finally {
      s.platform.seeders.pop();
    }
  });

  test("PUT renames a tenant but refuses to change its slug", async () => {
    const t = await createTenant(s, "renamable", sa);
    const res = await s.req("PUT", `/api/admin/tenants/${t.id}`, { token: sa, json: { name: "New name" } });
    expect((await res.json()).name).toBe("New name");
    await expectError(await s.req("PUT", `/api/admin/tenants/${t.id}`, { token: sa, json: { slug: "other" } }), 400);
    await expectError(await s.req("PUT", `/api/admin/tenants/unknown-id`, { token: sa, json: { name: "x" } }), 404);
  });

  test("the list is paginated and searchable", async () => {
    const page = await (await s.req("GET", "/api/admin/tenants?size=2&page=0&search=e", { token: sa })).json();
    expect(page.size).toBe(2);
    expect(page.number).toBe(0);
    expect(page.totalElements).toBeGreaterThanOrEqual(2);
    expect(page.content.every((t: { slug: string; name: string }) => /e/i.test(t.slug + t.name))).toBe(true);
  });
});

describe("global process templates", () => {
  test("provisioning deploys every enabled process template into the new tenant, which SA can list", async () => {
    const xml = `<?xml version="1.0"?><definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t"><process id="onboarding" name="Onboarding" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e"/></process></definitions>`;
    const now = new Date().toISOString();
    s.platform.platformSqlite
      .query("INSERT INTO process_templates (key, name, xml, enabled, created_at) VALUES (?, ?, ?, 1, ?)")
      .run("onboarding", "Onboarding", xml, now);
    s.platform.platformSqlite
      .query("INSERT INTO process_templates (key, name, xml, enabled, created_at) VALUES (?, ?, ?, 0, ?)")
      .run("retired", "Retired", xml.replace("onboarding", "retired"), now);
    const t = await createTenant(s, "templated", sa);
    const defs = await (await s.req("GET", `/api/admin/tenants/${t.id}/definitions`, { token: sa })).json();
    expect(defs.map((d: { key: string; version: number }) => [d.key, d.version])).toEqual([["onboarding", 1]]);
    // A second provisioning pass (the sweep after a failure) does not deploy again.
    await s.platform.seeders.at(-1)!(t.id);
    expect(
      (await (await s.req("GET", `/api/admin/tenants/${t.id}/definitions`, { token: sa })).json())[0].version,
    ).toBe(1);
    const admin = await userInTenant(s, t, "ADMIN", sa);
    await expectError(await s.req("GET", `/api/admin/tenants/${t.id}/definitions`, { token: admin.token }), 403);
    await expectError(await s.req("GET", "/api/admin/tenants/unknown/definitions", { token: sa }), 404);
    s.platform.platformSqlite.query("DELETE FROM process_templates").run();
  });
});
