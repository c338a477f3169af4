import { describe, expect, test } from "bun:test";
import { tenantTables } from "../../../db/tenant-rows";
import { writeGate } from "../../../db/write-gate";
import { bpmn, makeRuntime, T } from "../../../test/fixtures/bpmn/harness";
import { writtenOnRelease } from "../../../test/fixtures/write-gate";
import { createServiceJobs } from "./service-jobs";
import { createTenantPurge } from "./tenant-purge";
import { createWebhookOutbox } from "./webhook-outbox";

// The background writers of the engine database (service jobs, the end of a failed job, the webhook outbox) wait like
// the others (write-gate-writers.test.ts) while the checkpointer holds the engine's writes: they run on the event loop.

describe("background writers that wait while the checkpointer holds the engine's writes", () => {
  test("a service job is queued, and the end of its run (failed, then done) written, only once the writes are released", async () => {
    const { db, clock, kernel } = makeRuntime();
    const jobs = createServiceJobs(kernel);
    let finish: (ok: boolean) => void = () => {};
    jobs.register(
      "svc:test",
      () => new Promise<void>((resolve, reject) => (finish = (ok) => (ok ? resolve() : reject(new Error("down"))))),
    );
    const row = () => db.query("SELECT state, retries FROM jobs WHERE kind = 'svc:test'").get();
    await writtenOnRelease(db, () => jobs.enqueue(T, "svc:test", { doc: "d1" }), row);
    // One per subject, checked after the wait: a second job for the same document is not queued.
    const once = { unlessPending: { field: "doc", value: "d1" } };
    expect(await jobs.enqueue(T, "svc:test", { doc: "d1" }, once)).toBeNull();
    expect(db.query("SELECT count(*) AS n FROM jobs").get()).toEqual({ n: 1 });
    // The run is claimed while the writes are free; its handler ends while they are held.
    const gate = writeGate(db);
    const endsHeld = async (ok: boolean) => {
      const run = jobs.runDue();
      const before = row();
      gate.hold();
      finish(ok);
      await Bun.sleep(30);
      expect(row()).toEqual(before);
      gate.release();
      await run;
    };
    await endsHeld(false);
    expect(row()).toEqual({ state: "EXECUTABLE", retries: 2 });
    clock.advance(60_000);
    await endsHeld(true);
    expect(row()).toBeNull();
  });

  test("what a job works on, written alongside its row, is there for an executor that waited for the same release", async () => {
    const { db, kernel } = makeRuntime();
    const jobs = createServiceJobs(kernel);
    const documents = new Set<string>();
    const found: boolean[] = [];
    jobs.register("svc:test", async (job) => void found.push(documents.has(job.data.doc as string)));
    // An older due job that no handler runs any more: the executor's poll finds work, waits, and skips it at once.
    db.run(
      `INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, data, created_at)
       VALUES ('older', ?, NULL, NULL, '', 'svc:gone', 'svc:gone', 'EXECUTABLE', 0, 3, '{}', 0)`,
      [T],
    );
    const gate = writeGate(db);
    gate.hold();
    const queued = jobs.enqueue(T, "svc:test", { doc: "d1" }, { alongside: () => void documents.add("d1") });
    const polled = jobs.runDue();
    gate.release();
    await queued;
    await polled;
    expect(found).toEqual([true]);
  });

  test("the webhook outbox is acknowledged only once the writes are released", async () => {
    const { rt, db, kernel } = makeRuntime();
    const outbox = createWebhookOutbox(kernel);
    outbox.setFilter(() => true);
    await rt.deploy(T, bpmn("p", '<startEvent id="s"/>'), { fileName: "p.bpmn", createdBy: null });
    await rt.startInstance(T, { definitionKey: "p" });
    const events = outbox.peek(100);
    expect(events.length).toBeGreaterThan(0);
    await writtenOnRelease(
      db,
      () => outbox.ack(events[events.length - 1].seq),
      () => outbox.size(),
    );
    expect(outbox.size()).toBe(0);
    outbox.close();
  });

  test("a dropped tenant's purge deletes each batch only once the writes are released", async () => {
    const { rt, db, kernel } = makeRuntime();
    await rt.deploy(T, bpmn("p", '<startEvent id="s"/>'), { fileName: "p.bpmn", createdBy: null });
    const purge = createTenantPurge(kernel);
    const rows = () =>
      tenantTables(db).reduce(
        (n, t) =>
          n + (db.query<{ n: number }, [string]>(`SELECT count(*) AS n FROM ${t} WHERE tenant_id = ?`).get(T)?.n ?? 0),
        0,
      );
    expect(rows()).toBeGreaterThan(0);
    await writtenOnRelease(db, () => purge(T, 1_000), rows);
    while ((await purge(T, 1_000)) > 0);
    expect(rows()).toBe(0);
  });
});
