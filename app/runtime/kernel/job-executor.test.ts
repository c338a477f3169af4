import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { setBusyTimeout } from "../../../db/connection";
import { writeGate } from "../../../db/write-gate";
import { cmmn, makeCases, T } from "../../../test/fixtures/cmmn/harness";

const timerModel = cmmn(
  "waits",
  `<planItem id="piTimer" name="Timer" definitionRef="timer"/>
  <timerEventListener id="timer" name="Timer"><timerExpression>PT1H</timerExpression></timerEventListener>`,
);

describe("one job executor for process jobs and case timers", () => {
  test("a case timer that fails is retried every 10 s and dead-lettered when its retries run out, like a process job", async () => {
    const first = makeCases();
    await first.rt.deploy(T, timerModel, { fileName: "w.cmmn", createdBy: null });
    const c = await first.rt.startCase(T, { definitionKey: "waits" });
    first.db.close();
    // The case's definition is gone after a restart (no cached model): firing its timer fails.
    const h = makeCases({ path: first.path, clock: first.clock });
    h.db.run("UPDATE case_instances SET definition_id = 'gone' WHERE id = ?", [c.id]);
    const admin = h.kernel.jobAdmin;
    h.clock.advance(60 * 60_000);
    expect(await h.rt.runDueTimers()).toBe(0);
    expect(admin.failedJobs(T)).toMatchObject([
      { instanceId: c.id, kind: "case-timer", state: "EXECUTABLE", retries: 2 },
    ]);
    // Not due again before the retry wait.
    expect(await h.rt.runDueTimers()).toBe(0);
    expect(admin.failedJobs(T)[0].retries).toBe(2);
    for (let i = 0; i < 2; i++) {
      h.clock.advance(10_000);
      await h.rt.runDueTimers();
    }
    expect(admin.failedJobs(T)).toMatchObject([{ state: "DEADLETTER", retries: 0, exception: expect.any(String) }]);
    // An operator's retry puts it back; with the definition restored it fires.
    h.db.run("UPDATE case_instances SET definition_id = (SELECT id FROM definitions LIMIT 1) WHERE id = ?", [c.id]);
    await admin.retryJob(T, admin.failedJobs(T)[0].id);
    expect(await h.rt.runDueTimers()).toBe(1);
    expect(h.rt.timersOf(T, c.id)).toEqual([]);
  });

  test("a due job is not claimed while the checkpointer holds the writes; it runs once they are released", async () => {
    const h = makeCases();
    await h.rt.deploy(T, timerModel, { fileName: "w.cmmn", createdBy: null });
    const c = await h.rt.startCase(T, { definitionKey: "waits" });
    h.clock.advance(60 * 60_000);
    const gate = writeGate(h.db);
    gate.hold();
    let ran: number | undefined;
    const pass = h.rt.runDueTimers().then((n) => (ran = n));
    await Bun.sleep(30);
    // Held: no claim was written (a claim would have waited for SQLite's lock on the event loop during a TRUNCATE).
    expect(ran).toBeUndefined();
    expect(h.db.query("SELECT lock_owner FROM jobs WHERE instance_id = ?").get(c.id)).toEqual({ lock_owner: null });
    gate.release();
    await pass;
    expect(ran).toBe(1);
    expect(h.rt.timersOf(T, c.id)).toEqual([]);
  });

  test("a poll that finds nothing due takes no write lock", async () => {
    const h = makeCases();
    await h.rt.deploy(T, timerModel, { fileName: "w.cmmn", createdBy: null });
    await h.rt.startCase(T, { definitionKey: "waits" }); // its timer is due in an hour
    const other = new Database(h.path);
    other.run("BEGIN IMMEDIATE"); // another writer holds the lock; a claim's BEGIN IMMEDIATE would wait, then fail
    setBusyTimeout(h.db, 0);
    try {
      expect(await h.rt.runDueTimers()).toBe(0);
    } finally {
      other.run("ROLLBACK");
      other.close();
    }
  });
});
