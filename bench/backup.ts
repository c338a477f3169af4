// bench:backup — `npm run backup` of a data directory of BENCH_BACKUP_MB (default 1024) while the service serves:
// the backup's duration and the p50/p99 of concurrent authenticated reads during it, against the same reads without a
// backup (the ratio is the peer figure). The service and the backup run as their own processes (as in production);
// this process only generates the load. A quarter of the data is engine rows (VACUUM INTO work), the rest stored files.
import { Database } from "bun:sqlite";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adminTokenOf, ROOT, spawnServer } from "../test/harness/spawned";
import { closedLoop, fmt } from "./support/closed-loop";

const MB = Number(process.env.BENCH_BACKUP_MB ?? 1024);
const CONCURRENCY = Number(process.env.BENCH_BACKUP_CONCURRENCY ?? 8);
const work = mkdtempSync(join(tmpdir(), "bench-backup-"));
const srv = await spawnServer({ dataDir: join(work, "data") });
try {
  const token = await adminTokenOf(srv.base, "bench-backup");
  const fd = new FormData();
  fd.append("file", new File([await Bun.file(join(ROOT, "test/fixtures/bpmn/approval.bpmn")).text()], "a.bpmn"));
  await fetch(`${srv.base}/api/a/definitions/deploy`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: fd,
  });
  for (let i = 0; i < 50; i++)
    await fetch(`${srv.base}/api/a/instances`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ definitionKey: "approval" }),
    });

  // Fill: engine rows (1 KiB each) beside the running service, then files in the tenant's file store.
  const t0 = performance.now();
  const enginePath = join(srv.dataDir, "engine.sqlite");
  const engine = new Database(enginePath);
  engine.exec("PRAGMA busy_timeout = 10000");
  const ins = engine.query(
    "INSERT INTO activity_log (id, tenant_id, instance_id, execution_id, activity_id, activity_name, activity_type, start_time) VALUES (?, 'bench-filler', ?, 'e', 'a', ?, 'userTask', 0)",
  );
  const pad = "x".repeat(1000);
  const engineBytes = () =>
    ["", "-wal"].reduce((n, x) => n + (existsSync(`${enginePath}${x}`) ? statSync(`${enginePath}${x}`).size : 0), 0);
  // Rows until the engine file holds its quarter (row overhead and the key index make a row more than its 1 KiB).
  for (let i = 0; engineBytes() < (MB / 4) * 1024 * 1024; i += 10_000)
    engine.transaction(() => {
      for (let j = i; j < i + 10_000; j++) ins.run(`r${j}`, `i${j % 1000}`, pad);
    })();
  engine.close();
  const filesDir = join(srv.dataDir, "tenants", "bench-files");
  mkdirSync(filesDir, { recursive: true });
  const chunk = new Uint8Array(8 * 1024 * 1024).map((_, i) => (i * 2654435761) & 255);
  for (let i = 0; i < Math.round((MB * 3) / 4 / 8); i++) writeFileSync(join(filesDir, `blob-${i}`), chunk);
  console.log(`filled ${MB} MB in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const read = async () => {
    const res = await fetch(`${srv.base}/api/a/tasks?size=20`, { headers: { authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`read answered ${res.status}`);
  };
  const base = await closedLoop(read, { workers: CONCURRENCY, seconds: 5 });
  console.log(`reads without backup: ${fmt(base)}`);

  const tk = performance.now();
  const backup = Bun.spawn(
    [process.execPath, "scripts/backup.ts", "--to", join(work, "backup"), "--data", srv.dataDir],
    {
      cwd: ROOT,
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const during = await closedLoop(read, { workers: CONCURRENCY, seconds: 0, until: backup.exited });
  const backupS = (performance.now() - tk) / 1000;
  if ((await backup.exited) !== 0) throw new Error(`backup failed: ${await new Response(backup.stderr).text()}`);
  console.log((await new Response(backup.stdout).text()).trim());
  console.log(`backup of ${MB} MB while serving: ${backupS.toFixed(1)} s (${(MB / backupS).toFixed(0)} MB/s)`);
  console.log(`reads during backup:  ${fmt(during)}`);
  console.log(
    `ratio during/without: p99 ${(during.p99 / base.p99).toFixed(2)}x, throughput ${(during.perSecond / base.perSecond).toFixed(2)}x`,
  );
} finally {
  srv.proc.kill("SIGTERM");
  await srv.exited;
  rmSync(work, { recursive: true, force: true });
}
