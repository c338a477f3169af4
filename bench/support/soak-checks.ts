// bench:soak's end checks: nothing the service acknowledged is lost or doubled. After the load stops, the checks wait
// for the last timers (≤ 120 s) and webhook deliveries, then compare the driver's acknowledged counts with the
// service's databases (read beside the running service; WAL lets a reader in) and the receiver's tally, and run an
// integrity check of every database once the service has stopped.
import { Database } from "bun:sqlite";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Child } from "./load";

/** What the driver was told was done: the checks compare it with what the service holds. */
export interface Acknowledged {
  starts: number;
  completes: number;
  claims: number;
  records: number;
  attachments: number;
  documents: number;
}
interface Firm {
  id: string;
  token: string;
  collectionId: string;
  baseId: string;
}

export async function runEndChecks(o: {
  base: string;
  dataDir: string;
  receiverPort: number;
  firms: Firm[];
  acked: Acknowledged;
  svc: Child<unknown>;
}): Promise<boolean> {
  const engine = new Database(join(o.dataDir, "engine.sqlite"), { readonly: true });
  const platform = new Database(join(o.dataDir, "platform.sqlite"), { readonly: true });
  const one = (db: Database, sql: string) => Number((db.query(sql).get() as { n: number }).n);
  const waitFor = async (what: string, done: () => boolean, seconds: number) => {
    const until = Date.now() + seconds * 1000;
    while (!done() && Date.now() < until) await Bun.sleep(1000);
    if (!done()) console.log(`  (gave up waiting for ${what} after ${seconds} s)`);
  };
  await waitFor("the last timers", () => one(engine, "SELECT count(*) n FROM jobs") === 0, 180);
  await waitFor(
    "the last webhook deliveries",
    () =>
      one(engine, "SELECT count(*) n FROM webhook_outbox") === 0 &&
      one(platform, "SELECT count(*) n FROM webhook_deliveries WHERE status = 'PENDING'") === 0,
    120,
  );
  const tally = (await (await fetch(`http://127.0.0.1:${o.receiverPort}/count`)).json()) as {
    received: number;
    unique: number;
    duplicates: number;
    badSignature: number;
    unknownPath: number;
    byType: Record<string, number>;
  };
  const get = async (f: Firm, path: string) =>
    (await (await fetch(o.base + path, { headers: { authorization: `Bearer ${f.token}` } })).json()) as Record<
      string,
      unknown
    >;
  let records = 0;
  let attachments = 0;
  let documents = 0;
  for (const f of o.firms) {
    records += Number((await get(f, `/api/a/cms/collections/${f.collectionId}/records?size=1`)).totalElements);
    const list = await get(f, "/api/a/attachments?entityType=GLOBAL&entityId=soak");
    attachments += Array.isArray(list) ? list.length : Number(list.totalElements ?? 0);
    documents += Number((await get(f, `/api/a/knowledge-bases/${f.baseId}`)).documentCount);
  }
  const instances = one(engine, "SELECT count(*) n FROM process_instances WHERE definition_key = 'soak'");
  const ended = one(
    engine,
    "SELECT count(*) n FROM process_instances WHERE definition_key = 'soak' AND state = 'COMPLETED'",
  );
  const timersTwice = one(
    engine,
    "SELECT count(*) n FROM (SELECT instance_id FROM activity_log WHERE activity_id = 'pause' AND end_time IS NOT NULL GROUP BY instance_id HAVING count(*) > 1)",
  );
  const deliveries = one(platform, "SELECT count(*) n FROM webhook_deliveries");
  const failed = one(platform, "SELECT count(*) n FROM webhook_deliveries WHERE status = 'FAILED'");
  engine.close();
  platform.close();

  const checks: [string, boolean, string][] = [
    ["every acknowledged start is an instance", instances === o.acked.starts, `${instances} of ${o.acked.starts}`],
    [
      "every completed review ran its script, decision and timer to the end",
      ended === o.acked.completes,
      `${ended} ended of ${o.acked.completes} completed`,
    ],
    ["no timer fired twice", timersTwice === 0, `${timersTwice} instances`],
    ["CMS records", records === o.firms.length * 200 + o.acked.records, `${records} (${o.acked.records} written)`],
    ["attachments", attachments === o.acked.attachments, `${attachments} of ${o.acked.attachments}`],
    ["knowledge documents", documents === o.acked.documents, `${documents} of ${o.acked.documents}`],
    [
      "every delivery received once, signed",
      tally.unique === deliveries && tally.duplicates === 0 && tally.badSignature === 0 && failed === 0,
      `${tally.unique} unique of ${deliveries} deliveries, ${tally.duplicates} twice, ${tally.badSignature} bad signatures, ${failed} failed`,
    ],
    [
      "events match what was acknowledged",
      tally.byType["process.instance.started"] === o.acked.starts &&
        tally.byType["task.completed"] === o.acked.completes &&
        tally.byType["task.assigned"] === o.acked.claims &&
        tally.byType["process.instance.completed"] === ended,
      JSON.stringify(tally.byType),
    ],
  ];
  // Integrity of every database, once the service has stopped.
  o.svc.proc.kill("SIGTERM");
  await new Promise((r) => o.svc.proc.once("exit", r));
  const files = [join(o.dataDir, "platform.sqlite"), join(o.dataDir, "engine.sqlite")];
  const tenantsDir = join(o.dataDir, "tenants");
  for (const d of readdirSync(tenantsDir)) files.push(join(tenantsDir, d, "tenant.sqlite"));
  const bad = files.filter((p) => {
    const db = new Database(p, { readonly: true });
    const r = (db.query("PRAGMA integrity_check").get() as { integrity_check: string }).integrity_check;
    db.close();
    return r !== "ok";
  });
  checks.push(["integrity_check of every database", bad.length === 0, `${files.length} files, ${bad.length} not ok`]);
  console.log("end checks:");
  for (const [name, ok, detail] of checks) console.log(`  ${ok ? "ok  " : "FAIL"} ${name}: ${detail}`);
  return checks.every(([, ok]) => ok);
}
