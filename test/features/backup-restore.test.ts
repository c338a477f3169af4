import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { walk } from "../../app/platform/backup/snapshot";
import { createTenant, userInTenant } from "../harness/fixtures";
import { startTestServer, type TestServer } from "../harness/server";
import { ROOT } from "../harness/spawned";

const scratch = mkdtempSync(join(tmpdir(), "pms-backup-"));
const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** Runs the npm script's command as its own process (so the service keeps serving meanwhile). */
async function cli(script: "backup" | "restore", args: string[], env: Record<string, string> = {}) {
  const proc = Bun.spawn([process.execPath, `scripts/${script}.ts`, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [code, out, err] = await Promise.all([
    proc.exited,
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
  ]);
  return { code, out: out + err };
}

describe("backup and restore", () => {
  test("restore drill: writes under load, online backup, restore into a new data dir, every acknowledged write is there", async () => {
    const s = await startTestServer();
    servers.push(s);
    const tenant = await createTenant(s, "drill");
    const { token } = await userInTenant(s, tenant, "ADMIN");
    const file = new FormData();
    file.append("entityType", "GLOBAL");
    file.append("entityId", "handbook");
    file.append("file", new Blob(["the handbook"], { type: "application/pdf" }), "handbook.pdf");
    expect((await s.req("POST", "/api/a/attachments", { token, body: file })).status).toBe(201);

    // Writers into the tenant database and the platform database, acknowledged writes recorded as they answer.
    const acked: string[] = [];
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        const name = `v_${++n}`;
        const res = await s.req("POST", "/api/a/variables", { token, json: { name, value: `value ${n}` } });
        expect(res.status).toBe(201);
        acked.push(name);
        await Bun.sleep(1);
      }
    })();
    while (acked.length < 20) await Bun.sleep(5);
    const ackedBefore = [...acked];
    const backupDir = join(scratch, "b1");
    const backup = await cli("backup", ["--to", backupDir], { DATA_DIR: s.dataDir });
    const duringBackup = acked.length - ackedBefore.length;
    writing = false;
    await writer;
    expect(backup.out).toContain("integrity ok");
    expect(backup.code).toBe(0);
    // The service was writing while the backup ran (a separate process): it was online.
    expect(duringBackup).toBeGreaterThan(0);

    const restored = join(scratch, "restored");
    const restore = await cli("restore", ["--from", backupDir, "--data", restored]);
    expect(restore.code).toBe(0);
    for (const p of walk(restored).filter((f) => f.endsWith(".sqlite"))) {
      const db = new Database(join(restored, p), { readonly: true });
      expect(db.query("PRAGMA integrity_check").get()).toEqual({ integrity_check: "ok" });
      db.close();
    }

    // Started on the restored data (same secret, so the same tokens verify): the writes and the file are there.
    const r = await startTestServer({ env: { DATA_DIR: restored } });
    servers.push(r);
    const vars = (await (await r.req("GET", "/api/a/variables", { token })).json()) as { name: string }[];
    const names = new Set(vars.map((v) => v.name));
    expect(ackedBefore.filter((v) => !names.has(v))).toEqual([]);
    const list = (await (
      await r.req("GET", "/api/a/attachments?entityType=GLOBAL&entityId=handbook", { token })
    ).json()) as { id: string }[];
    expect(list).toHaveLength(1);
    const content = await r.req("GET", `/api/a/attachments/${list[0].id}/download`, { token });
    expect(await content.text()).toBe("the handbook");
  }, 60_000);

  test("backup refuses a non-empty target; restore refuses a non-empty data dir and a folder that is no backup", async () => {
    const s = await startTestServer();
    servers.push(s);
    const used = join(scratch, "used");
    rmSync(used, { recursive: true, force: true });
    mkdirSync(used);
    writeFileSync(join(used, "something"), "x");
    const b = await cli("backup", ["--to", used], { DATA_DIR: s.dataDir });
    expect(b.code).toBe(1);
    expect(b.out).toContain("not empty");
    expect((await cli("backup", [], { DATA_DIR: s.dataDir })).code).toBe(2);
    const inside = await cli("backup", ["--to", join(s.dataDir, "backups")], { DATA_DIR: s.dataDir });
    expect(inside.code).toBe(1);
    expect(inside.out).toContain("inside the data directory");

    const good = join(scratch, "good");
    expect((await cli("backup", ["--to", good], { DATA_DIR: s.dataDir })).code).toBe(0);
    const intoLive = await cli("restore", ["--from", good, "--data", s.dataDir]);
    expect(intoLive.code).toBe(1);
    expect(intoLive.out).toContain("not empty");
    const notBackup = await cli("restore", ["--from", used, "--data", join(scratch, "fresh")]);
    expect(notBackup.code).toBe(1);
    expect(notBackup.out).toContain("is not a backup");
    expect(readdirSync(scratch)).not.toContain("fresh");
  }, 60_000);
});
