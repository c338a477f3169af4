import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { backupDataDir, walk } from "../../app/platform/backup/snapshot";
import { resolveTenantVariable } from "../../app/services/tenant-variables/resolve";
import { sealPlainSecrets } from "../../app/services/tenant-variables/sealing";
import { createSecretBox } from "../../app/services/secret-box";
import { tenantDbPath } from "../../tenants/paths";
import { TenantDbCache } from "../../tenants/tenant-db-cache";
import { sealEveryTenant, tenantSecretsOf } from "../../app/platform/tenant-secrets";

// Issue 29 point 5: secret tenant variables (what inbox passwords and secret robot parameters refer to) are sealed at
// rest, in backups and in tenant exports; the service still reads them back for use.
let s: TestServer;
let sa: string;
let tenant: { id: string; slug: string };
let admin = "";
const SECRET = "imap-pw-Zq7-unique-4417";
const PLAIN = "plain-region-value-8812";

/** Every file under `dir` that contains `needle` (as bytes: SQLite pages, WAL frames, tar members alike). */
const filesWith = (dir: string, needle: string) =>
  walk(dir).filter((p) => readFileSync(join(dir, p)).includes(Buffer.from(needle)));

beforeAll(async () => {
  s = await startTestServer();
  sa = await saToken(s);
  tenant = await createTenant(s, "sealed", sa);
  admin = (await userInTenant(s, tenant, "ADMIN", sa)).token;
  const post = (json: Record<string, unknown>) => s.req("POST", "/api/a/variables", { token: admin, json });
  expect((await post({ name: "IMAP_PW", value: SECRET, secret: true })).status).toBe(201);
  expect((await post({ name: "REGION", value: PLAIN })).status).toBe(201);
});
afterAll(() => s.close());

describe("secret tenant variables are sealed at rest", () => {
  test("no database file of the data directory holds the plaintext; the plain variable is there (the grep works)", () => {
    expect(filesWith(s.dataDir, SECRET)).toEqual([]);
    expect(filesWith(s.dataDir, PLAIN).length).toBeGreaterThan(0);
    const raw = s.platform.tenantDbs
      .get(tenant.id)
      .sqlite.query("SELECT value FROM tenant_variables WHERE name = 'IMAP_PW'")
      .get() as {
      value: string;
    };
    expect(raw.value).toStartWith("sealed:v1.");
  });

  test("the API never shows it; the service reads it back for use; replacing it stays sealed", async () => {
    const got = await (await s.req("GET", "/api/a/variables/IMAP_PW", { token: admin })).json();
    expect(got).toMatchObject({ name: "IMAP_PW", secret: true, value: null });
    expect(resolveTenantVariable(s.platform.tenantDbs.get(tenant.id), "IMAP_PW")).toBe(SECRET);
    expect(resolveTenantVariable(s.platform.tenantDbs.get(tenant.id), "REGION")).toBe(PLAIN);
    const next = `${SECRET}-v2`;
    const put = await s.req("PUT", "/api/a/variables/IMAP_PW", { token: admin, json: { value: next } });
    expect(put.status).toBe(200);
    expect(resolveTenantVariable(s.platform.tenantDbs.get(tenant.id), "IMAP_PW")).toBe(next);
    expect(filesWith(s.dataDir, next)).toEqual([]);
    // Turned into a plain value, it is stored plain (the value is always sent again, the old secret never shown).
    await s.req("PUT", "/api/a/variables/IMAP_PW", { token: admin, json: { value: SECRET, secret: true } });
  });

  test("a backup and a tenant export hold it sealed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sealed-backup-"));
    try {
      backupDataDir(s.dataDir, join(dir, "backup"));
      expect(filesWith(join(dir, "backup"), PLAIN).length).toBeGreaterThan(0);
      expect(filesWith(join(dir, "backup"), SECRET)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const exported = await s.req("GET", `/api/admin/tenants/${tenant.id}/export`, { token: sa });
    expect(exported.status).toBe(200);
    const tar = Buffer.from(await exported.arrayBuffer());
    expect(tar.includes(Buffer.from(PLAIN))).toBe(true);
    expect(tar.includes(Buffer.from(SECRET))).toBe(false);
  });

  test("the migration seals secrets stored in plaintext before, once, and leaves plain variables alone", () => {
    const db = new Database(tenantDbPath(s.dataDir, tenant.id));
    try {
      db.run("INSERT INTO tenant_variables (name, value, secret, created_at, updated_at) VALUES (?, ?, 1, 'x', 'x')", [
        "OLD_PW",
        "legacy-plain-secret-5531",
      ]);
      const box = createSecretBox("test-secret-with-enough-entropy-0123456789", "tenant-secrets");
      expect(sealPlainSecrets(db, box)).toBe(1);
      expect(sealPlainSecrets(db, box)).toBe(0);
      const rows = db.query("SELECT name, value FROM tenant_variables ORDER BY name").all() as {
        name: string;
        value: string;
      }[];
      expect(rows.find((r) => r.name === "OLD_PW")?.value).toStartWith("sealed:v1.");
      expect(rows.find((r) => r.name === "REGION")?.value).toBe(PLAIN);
    } finally {
      db.close();
    }
    // The running service (same key) reads the migrated value back.
    expect(resolveTenantVariable(s.platform.tenantDbs.get(tenant.id), "OLD_PW")).toBe("legacy-plain-secret-5531");
  });

  test("after a start every tenant file is opened once and its earlier plaintext secrets sealed", async () => {
    const other = await createTenant(s, "sealed-later", sa);
    const file = tenantDbPath(s.dataDir, other.id);
    const raw = new Database(file);
    raw.run(
      "INSERT INTO tenant_variables (name, value, secret, created_at, updated_at) VALUES ('PW', ?, 1, 'x', 'x')",
      ["never-opened-plain-7719"],
    );
    raw.close();
    const logs: string[] = [];
    // A fresh process's view of the same files: the platform's migrator and the sweep it starts.
    const wiring = tenantSecretsOf("test-secret-with-enough-entropy-0123456789", undefined, (m) => logs.push(m));
    const cache = new TenantDbCache({
      dataDir: s.dataDir,
      maxOpen: 4,
      synchronous: "NORMAL",
      migrator: wiring.migrator,
      secrets: wiring.secrets,
    });
    try {
      await sealEveryTenant(s.platform.platformSqlite, cache, () => true);
      expect(logs).toContain(`[tenants] tenant ${other.id}: 1 secret variable(s) sealed at rest`);
      expect(resolveTenantVariable(cache.get(other.id), "PW")).toBe("never-opened-plain-7719");
    } finally {
      cache.closeAll();
    }
    expect(filesWith(s.dataDir, "never-opened-plain-7719")).toEqual([]);
  });
});
