import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { bpmnFixture, deployBpmn, startProcess } from "../harness/process";
import { tenantDir } from "../../tenants/paths";

// Issue 17: SUSPENDED → DEACTIVATED → DROPPED through SA routes, the durable drop job, and the tenant export.
let s: TestServer;
let sa: string;
let doomed: { id: string; slug: string };
let kept: { id: string; slug: string };
let doomedAdmin: { token: string };
let keptAdmin: { token: string };

const tenantRows = (file: string, tenantId: string) => {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      .query<{ name: string }, []>(
        "SELECT m.name FROM sqlite_master m WHERE m.type = 'table' AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) WHERE name = 'tenant_id')",
      )
      .all()
      .map((t) => t.name)
      .filter((t) => t !== "tenant_drops");
    let n = 0;
    for (const t of tables)
      n += db.query<{ n: number }, [string]>(`SELECT COUNT(*) n FROM "${t}" WHERE tenant_id = ?`).get(tenantId)!.n;
    return n;
  } finally {
    db.close();
  }
};
const engineRows = (id: string) => tenantRows(join(s.dataDir, "engine.sqlite"), id);
const platformRows = (id: string) => tenantRows(join(s.dataDir, "platform.sqlite"), id);
const get = async (id: string) => (await (await s.req("GET", `/api/admin/tenants/${id}`, { token: sa })).json()) as any;
const patch = (id: string, action: string, token = sa) =>
  s.req("PATCH", `/api/admin/tenants/${id}/${action}`, { token });
const drop = (id: string, confirm: unknown, token = sa) =>
  s.req("POST", `/api/admin/tenants/${id}/drop`, { token, json: { confirm } });

async function fill(tenant: { id: string; slug: string }, admin: { token: string }) {
  await deployBpmn(s, admin.token, bpmnFixture("approval.bpmn"));
  await startProcess(s, admin.token, { definitionKey: "approval", variables: { amount: 5 } });
  const fd = new FormData();
  fd.append("file", new Blob([`handbook of ${tenant.slug}`], { type: "application/pdf" }), "handbook.pdf");
  fd.append("entityType", "GLOBAL");
  fd.append("entityId", "handbook");
  expect((await s.req("POST", "/api/a/attachments", { token: admin.token, body: fd })).status).toBe(201);
}

beforeAll(async () => {
  s = await startTestServer({ env: { TENANT_DROP_BATCH_SIZE: "3" } });
  sa = await saToken(s);
  doomed = await createTenant(s, "doomed", sa);
  kept = await createTenant(s, "kept", sa);
  doomedAdmin = await userInTenant(s, doomed, "ADMIN", sa);
  keptAdmin = await userInTenant(s, kept, "ADMIN", sa);
  await fill(doomed, doomedAdmin);
  await fill(kept, keptAdmin);
});
afterAll(() => s.close());

describe("tenant end of life", () => {
  test("refusals: a tenant admin is not a SUPER_ADMIN (403), unknown ids 404, wrong states 409", async () => {
    await expectError(await patch(doomed.id, "deactivate", doomedAdmin.token), 403);
    await expectError(await drop(doomed.id, "doomed", doomedAdmin.token), 403);
    await expectError(await s.req("GET", `/api/admin/tenants/${doomed.id}/export`, { token: keptAdmin.token }), 403);
    await expectError(await patch("no-such-tenant", "deactivate"), 404);
    await expectError(await drop("no-such-tenant", "x"), 404);
    await expectError(await s.req("GET", "/api/admin/tenants/no-such-tenant/export", { token: sa }), 404);
    // ACTIVE cannot be deactivated nor dropped
    await expectError(await patch(doomed.id, "deactivate"), 409, /only a SUSPENDED tenant can be deactivated/);
    await expectError(await drop(doomed.id, "doomed"), 409, /only a DEACTIVATED tenant can be dropped/);
    expect((await patch(doomed.id, "suspend")).status).toBe(200);
    await expectError(await drop(doomed.id, "doomed"), 409, /SUSPENDED/);
  });

  test("deactivate: SUSPENDED → DEACTIVATED, requests refused, no way back, data kept", async () => {
    const res = await patch(doomed.id, "deactivate");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("DEACTIVATED");
    await expectError(await s.req("GET", "/api/a/tasks", { token: doomedAdmin.token }), 403, /deactivated/);
    await expectError(await patch(doomed.id, "reactivate"), 409);
    await expectError(await patch(doomed.id, "deactivate"), 409);
    expect(existsSync(join(tenantDir(s.dataDir, doomed.id), "tenant.sqlite"))).toBe(true);
    expect(engineRows(doomed.id)).toBeGreaterThan(5);
  });

  test("export of a deactivated tenant: its own database snapshot, its files, a manifest; nothing of another tenant", async () => {
    const res = await s.req("GET", `/api/admin/tenants/${doomed.id}/export`, { token: sa });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-tar");
    expect(res.headers.get("content-disposition")).toMatch(/tenant-doomed-.*\.tar/);
    const dir = mkdtempSync(join(tmpdir(), "export-"));
    try {
      writeFileSync(join(dir, "x.tar"), new Uint8Array(await res.arrayBuffer()));
      const list = Bun.spawnSync(["tar", "-tf", join(dir, "x.tar")])
        .stdout.toString()
        .trim()
        .split("\n");
      expect(list.slice(0, 3)).toEqual(["tenant.json", "backup-manifest.json", "tenant.sqlite"]);
      expect(list.some((p) => p.startsWith("files/attachments/"))).toBe(true);
      expect(Bun.spawnSync(["tar", "-xf", "x.tar"], { cwd: dir }).exitCode).toBe(0);
      const about = JSON.parse(readFileSync(join(dir, "tenant.json"), "utf8"));
      expect(about.tenant).toMatchObject({ id: doomed.id, slug: "doomed", status: "DEACTIVATED" });
      expect(about.notContained).toMatch(/isolation rule 7/);
      const db = new Database(join(dir, "tenant.sqlite"), { readonly: true });
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      db.close();
      const stored = list.filter((p) => p.startsWith("files/attachments/") && !p.endsWith("/"));
      const contents = stored.map((p) => readFileSync(join(dir, p), "utf8"));
      expect(contents).toContain("handbook of doomed");
      expect(contents).not.toContain("handbook of kept");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // An ACTIVE tenant can be exported too (online), a DROPPED one cannot (checked below).
    expect((await s.req("GET", `/api/admin/tenants/${kept.id}/export`, { token: sa })).status).toBe(200);
  });

  test("drop: a wrong or missing confirmation is 400 and changes nothing", async () => {
    await expectError(await drop(doomed.id, "kept"), 400, /confirmation/);
    await expectError(await drop(doomed.id, "DOOMED "), 400);
    const res = await s.req("POST", `/api/admin/tenants/${doomed.id}/drop`, { token: sa, json: {} });
    expect(res.status).toBe(400);
    expect((await get(doomed.id)).drop).toBeUndefined();
  });

  test("drop: the job deletes the shared rows in batches, the file and the files; progress on GET; other tenants intact", async () => {
    const keptEngine = engineRows(kept.id);
    const keptPlatform = platformRows(kept.id);
    const res = await drop(doomed.id, "doomed");
    expect(res.status).toBe(202);
    const started = (await res.json()) as any;
    expect(started.drop).toMatchObject({ state: "RUNNING", phase: "ENGINE" });
    await expectError(
      await s.req("GET", `/api/admin/tenants/${doomed.id}/export`, { token: sa }),
      409,
      /being dropped/,
    );
    // asked again while it runs: the same job, not a second one
    expect((await drop(doomed.id, "doomed")).status).toBe(202);
    await s.platform.idle();
    const done = await get(doomed.id);
    expect(done.drop.lastError).toBeUndefined();
    expect(done.status).toBe("DROPPED");
    expect(done.drop).toMatchObject({ state: "FINISHED", phase: "DONE", attempts: 1 });
    expect(done.drop.deletedRows).toBeGreaterThan(10);
    expect(engineRows(doomed.id)).toBe(0);
    expect(platformRows(doomed.id)).toBe(0);
    expect(existsSync(tenantDir(s.dataDir, doomed.id))).toBe(false);
    expect(engineRows(kept.id)).toBe(keptEngine);
    expect(platformRows(kept.id)).toBe(keptPlatform);
    expect((await s.req("GET", "/api/a/tasks", { token: keptAdmin.token })).status).toBe(200);
  });

  test("after the drop: 409 on every end-of-life route, the tenant's old token refused", async () => {
    await expectError(await drop(doomed.id, "doomed"), 409, /DROPPED/);
    await expectError(await patch(doomed.id, "deactivate"), 409);
    await expectError(await patch(doomed.id, "reactivate"), 409);
    await expectError(await s.req("GET", `/api/admin/tenants/${doomed.id}/export`, { token: sa }), 409);
    const refused = await s.req("GET", "/api/a/tasks", { token: doomedAdmin.token });
    expect([401, 403]).toContain(refused.status);
  });
});
