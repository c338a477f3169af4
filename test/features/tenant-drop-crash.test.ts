import { afterAll, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { adminTokenOf, SPAWN_SA, spawnServer, type SpawnedServer } from "../harness/spawned";
import { tenantDir } from "../../tenants/paths";

// Issue 17: the drop job survives kill -9 in the middle; the restarted service finishes it, deleting each row once.
const FILLER = 20_000;
let srv: SpawnedServer | null = null;
let dataDir = "";
afterAll(async () => {
  srv?.proc.kill("SIGTERM");
  await srv?.exited;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const call = async (base: string, token: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any };
};
const rowsOf = (tenantId: string) => {
  const db = new Database(join(dataDir, "engine.sqlite"));
  try {
    return db.query<{ n: number }, [string]>("SELECT COUNT(*) n FROM activity_log WHERE tenant_id = ?").get(tenantId)!
      .n;
  } finally {
    db.close();
  }
};

test("kill -9 in the middle of a drop: the restarted service finishes it; the other tenant keeps every row", async () => {
  const env = { TENANT_DROP_BATCH_SIZE: "10" };
  srv = await spawnServer({ env });
  dataDir = srv.dataDir;
  const base = srv.base;
  await adminTokenOf(base, "crashy");
  await adminTokenOf(base, "survivor");
  const sa = (
    (await (
      await fetch(`${base}/api/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(SPAWN_SA),
      })
    ).json()) as { accessToken: string }
  ).accessToken;
  const list = (await call(base, sa, "GET", "/api/admin/tenants")).body.content as { id: string; slug: string }[];
  const crashy = list.find((t) => t.slug === "crashy")!.id;
  const survivor = list.find((t) => t.slug === "survivor")!.id;

  // History rows for both tenants, written beside the running service (WAL) so the drop has many batches to do.
  const db = new Database(join(dataDir, "engine.sqlite"));
  db.exec("PRAGMA busy_timeout = 10000");
  const ins = db.query(
    "INSERT INTO activity_log (id, tenant_id, instance_id, execution_id, activity_id, activity_name, activity_type, start_time) VALUES (?, ?, ?, 'e', 'a', 'A', 'userTask', 0)",
  );
  db.transaction(() => {
    for (let i = 0; i < FILLER; i++) {
      ins.run(`c${i}`, crashy, `i${i % 97}`);
      if (i % 10 === 0) ins.run(`s${i}`, survivor, `j${i % 89}`);
    }
  })();
  db.close();
  const survivorRows = rowsOf(survivor);
  expect(survivorRows).toBe(FILLER / 10);

  expect((await call(base, sa, "PATCH", `/api/admin/tenants/${crashy}/suspend`)).status).toBe(200);
  expect((await call(base, sa, "PATCH", `/api/admin/tenants/${crashy}/deactivate`)).status).toBe(200);
  expect((await call(base, sa, "POST", `/api/admin/tenants/${crashy}/drop`, { confirm: "crashy" })).status).toBe(202);
  let progress: any;
  for (let i = 0; i < 2000; i++) {
    progress = (await call(base, sa, "GET", `/api/admin/tenants/${crashy}`)).body.drop;
    if (progress.deletedRows >= 500 || progress.state === "FINISHED") break;
    await Bun.sleep(5);
  }
  expect(progress).toMatchObject({ state: "RUNNING", phase: "ENGINE" });
  srv.proc.kill(9);
  await srv.exited;
  const left = rowsOf(crashy);
  expect(left).toBeGreaterThan(0);
  expect(left).toBeLessThan(FILLER);

  srv = await spawnServer({ dataDir, env: { TENANT_DROP_BATCH_SIZE: "500" } });
  let t: any;
  for (let i = 0; i < 600; i++) {
    t = (await call(srv.base, sa, "GET", `/api/admin/tenants/${crashy}`)).body;
    if (t.status === "DROPPED") break;
    await Bun.sleep(50);
  }
  expect(t.status).toBe("DROPPED");
  expect(t.drop).toMatchObject({ state: "FINISHED", phase: "DONE", attempts: 2 });
  expect(t.drop.lastError).toBeUndefined();
  expect(t.drop.deletedRows).toBeGreaterThanOrEqual(FILLER - 10); // at most one engine batch uncounted by the crash
  expect(rowsOf(crashy)).toBe(0);
  expect(rowsOf(survivor)).toBe(survivorRows);
  expect(existsSync(tenantDir(dataDir, crashy))).toBe(false);
  expect(existsSync(tenantDir(dataDir, survivor))).toBe(true);
}, 60_000);
