import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";
import { createAgent } from "../harness/agents";
import { type FakeOpenAi, startFakeOpenAi } from "../harness/openai-server";
import { CASCADED_FROM, NOT_TENANT_DATA, tenantColumnOf } from "../../db/tenant-rows";
import { tenantDir } from "../../tenants/paths";

// Issue 29 point 7: a drop removes every row of the tenant from every table of the shared databases, whatever column
// names the tenant; every table is enumerated from the migrated schemas, so a new table without a rule fails here.
let s: TestServer;
let ai: FakeOpenAi;
let sa: string;
let doomed: { id: string; slug: string };
let kept: { id: string; slug: string };
const SHARED = ["platform", "engine"] as const;
/** Rows of a dropped tenant that stay by design: its record of the drop. */
const KEPT_AFTER_DROP: Record<string, number> = { tenant_drops: 1 };

const open = (kind: (typeof SHARED)[number]) => new Database(join(s.dataDir, `${kind}.sqlite`), { readonly: true });
const tablesOf = (db: Database) =>
  db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name",
    )
    .all()
    .map((r) => r.name);

/** Rows per (database, table) of `tenantId`, for every table that names a tenant. */
function countsOf(tenantId: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of SHARED) {
    const db = open(kind);
    try {
      for (const t of tablesOf(db)) {
        const col = tenantColumnOf(db, t);
        if (!col) continue;
        out[`${kind}.${t}`] = db
          .query<{ n: number }, [string]>(`SELECT count(*) AS n FROM "${t}" WHERE "${col}" = ?`)
          .get(tenantId)!.n;
      }
    } finally {
      db.close();
    }
  }
  return out;
}

async function fill(tenant: { id: string; slug: string }) {
  const admin = await userInTenant(s, tenant, "ADMIN", sa);
  await userInTenant(s, tenant, "MODELER", sa);
  await deployBpmn(s, admin.token, bpmnFixture("approval.bpmn"));
  await startProcess(s, admin.token, { definitionKey: "approval", variables: { amount: 5 } });
  await createAgent(s, admin.token, { key: "helper", name: "Helper" });
  await apiKey(s, admin.token, ["read"]);
  const v = await s.req("POST", "/api/a/variables", { token: admin.token, json: { name: "REGION", value: "eu" } });
  expect(v.status).toBe(201);
  const fd = new FormData();
  fd.append("file", new Blob([`notes of ${tenant.slug}`], { type: "text/plain" }), "notes.txt");
  fd.append("entityType", "GLOBAL");
  fd.append("entityId", "notes");
  expect((await s.req("POST", "/api/a/attachments", { token: admin.token, body: fd })).status).toBe(201);
}

beforeAll(async () => {
  ai = startFakeOpenAi();
  s = await startTestServer({
    env: { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed", TENANT_DROP_BATCH_SIZE: "7" },
  });
  sa = await saToken(s);
  doomed = await createTenant(s, "drop-all", sa);
  kept = await createTenant(s, "drop-keep", sa);
  await fill(doomed);
  await fill(kept);
});
afterAll(async () => {
  await s.close();
  ai.stop();
});

describe("a tenant drop empties every table of the shared databases for that tenant", () => {
  test("every table has a rule: a tenant column, a parent it cascades from, or a reason it holds no tenant's rows", () => {
    const unruled: string[] = [];
    const known = new Set<string>();
    for (const kind of SHARED) {
      const db = open(kind);
      try {
        for (const t of tablesOf(db)) {
          known.add(t);
          const rules = [tenantColumnOf(db, t) !== null, t in CASCADED_FROM, t in NOT_TENANT_DATA].filter(Boolean);
          if (rules.length !== 1) unruled.push(`${kind}.${t} (${rules.length} rules)`);
        }
      } finally {
        db.close();
      }
    }
    expect(unruled).toEqual([]);
    // No stale rule names a table that is gone.
    for (const t of [...Object.keys(CASCADED_FROM), ...Object.keys(NOT_TENANT_DATA)]) expect(known.has(t)).toBe(true);
  });

  test("after the drop every table is empty for the dropped tenant, another tenant's counts are unchanged", async () => {
    const before = countsOf(doomed.id);
    // What the drop used to leave behind: the agent, whose tenant column is `scope`.
    expect(before["platform.agents"]).toBe(1);
    expect(before["engine.process_instances"] ?? before["engine.executions"]).toBeGreaterThan(0);
    expect(before["platform.memberships"]).toBe(2);
    const keptBefore = countsOf(kept.id);
    for (const action of ["suspend", "deactivate"])
      expect((await s.req("PATCH", `/api/admin/tenants/${doomed.id}/${action}`, { token: sa })).status).toBe(200);
    const res = await s.req("POST", `/api/admin/tenants/${doomed.id}/drop`, {
      token: sa,
      json: { confirm: doomed.slug },
    });
    expect(res.status).toBe(202);
    await s.platform.idle();
    const after = await (await s.req("GET", `/api/admin/tenants/${doomed.id}`, { token: sa })).json();
    expect(after.status).toBe("DROPPED");
    const left = Object.entries(countsOf(doomed.id)).filter(
      ([t, n]) => n !== (KEPT_AFTER_DROP[t.slice(t.indexOf(".") + 1)] ?? 0),
    );
    expect(left).toEqual([]);
    expect(countsOf(kept.id)).toEqual(keptBefore);
    // Rows that belong through a parent went with it (no orphans), and the tenant's own database went with its folder.
    for (const kind of SHARED) {
      const db = open(kind);
      try {
        for (const t of Object.keys(CASCADED_FROM).filter((x) => tablesOf(db).includes(x)))
          expect(db.query(`PRAGMA foreign_key_check("${t}")`).all()).toEqual([]);
      } finally {
        db.close();
      }
    }
    expect(existsSync(tenantDir(s.dataDir, doomed.id))).toBe(false);
    // The kept tenant's global agent list still holds its own agent.
    const keptAdmin = await userInTenant(s, kept, "ADMIN", sa);
    const agents = await (await s.req("GET", "/api/a/agents", { token: keptAdmin.token })).json();
    expect(agents.map((a: { key: string }) => a.key)).toEqual(["helper"]);
  });
});
