import { describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../../db/connection";
import { migrationsFolder, runMigrations } from "../../../db/migrate";
import { cmmn, T, testClock } from "../../../test/fixtures/cmmn/harness";
import { createCaseRuntime } from "../cmmn";
import { createKernel } from "./kernel";

const TAG = "0012_case_timers_into_jobs";

/** The engine migrations as they were before case timers moved into the jobs table. */
function foldersBefore(): string {
  const dir = join(mkdtempSync(join(tmpdir(), "engine-migrations-")), "engine");
  cpSync(migrationsFolder("engine"), dir, { recursive: true });
  rmSync(join(dir, `${TAG}.sql`));
  const journalPath = join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: Array<{ tag: string }> };
  // Everything from 0012 on: drizzle skips a migration older than the newest applied, so later ones must go too.
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((e) => e.tag === TAG),
  );
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

const timerModel = cmmn(
  "waits",
  `<planItem id="piTimer" name="Timer" definitionRef="timer"/>
  <planItem id="piA" name="A" definitionRef="a"><entryCriterion id="ec" sentryRef="s1"/></planItem>
  <sentry id="s1"><planItemOnPart id="op" sourceRef="piTimer"><standardEvent>occur</standardEvent></planItemOnPart></sentry>
  <timerEventListener id="timer" name="Timer"><timerExpression>PT1H</timerExpression></timerEventListener>
  <humanTask id="a" name="A"/>`,
);

describe("migration 0012: case timers move into the jobs table", () => {
  test("a timer pending before the upgrade is a case-timer job afterwards and fires once from the one executor", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "engine-")), "engine.db");
    const clock = testClock();
    const old = openSqlite(path);
    runMigrations(old, "engine", foldersBefore());
    // A case started before the upgrade: its timer is a row of case_timers, written as the old runtime wrote it.
    const defId = "def-1";
    old.run(
      "INSERT INTO deployments (id, tenant_id, file_name, created_by, created_at) VALUES ('d1', ?, 'w.cmmn', NULL, '2025-01-01T00:00:00Z')",
      [T],
    );
    const fresh = openSqlite(join(mkdtempSync(join(tmpdir(), "engine-model-")), "engine.db"));
    runMigrations(fresh, "engine");
    const seed = createCaseRuntime({ kernel: createKernel({ db: fresh, clock }) });
    await seed.deploy(T, timerModel, { fileName: "w.cmmn", createdBy: null });
    const started = await seed.startCase(T, { definitionKey: "waits" });
    const model = fresh.query("SELECT xml, model FROM definitions").get() as { xml: string; model: string };
    const caseRow = fresh.query("SELECT * FROM case_instances").get() as Record<string, string | number | null>;
    const items = fresh.query("SELECT * FROM case_plan_items").all() as Record<string, string | number | null>[];
    const timer = fresh.query("SELECT * FROM jobs WHERE kind = 'case-timer'").get() as Record<string, string | number>;
    old.run(
      "INSERT INTO definitions (id, tenant_id, key, name, type, version, deployment_id, xml, model, published, created_at) VALUES (?,?,'waits','waits','CMMN',1,'d1',?,?,0,'2025-01-01T00:00:00Z')",
      [defId, T, model.xml, model.model],
    );
    const cols = (r: Record<string, unknown>) => Object.keys(r);
    const insert = (table: string, r: Record<string, unknown>) =>
      old
        .query(
          `INSERT INTO ${table} (${cols(r).join(",")}) VALUES (${cols(r)
            .map(() => "?")
            .join(",")})`,
        )
        .run(...(Object.values(r) as string[]));
    insert("case_instances", { ...caseRow, definition_id: defId });
    for (const it of items) insert("case_plan_items", it);
    old.run(
      "INSERT INTO case_timers (id, tenant_id, case_instance_id, plan_item_instance_id, element_id, due_at, repeat, created_at) VALUES (?,?,?,?,?,?,NULL,?)",
      [timer.id, T, started.id, timer.execution_id, timer.activity_id, timer.due_at, timer.created_at],
    );
    old.close();

    const db = openSqlite(path);
    runMigrations(db, "engine");
    expect(db.query("SELECT name FROM sqlite_master WHERE name = 'case_timers'").get()).toBeNull();
    const job = db.query("SELECT * FROM jobs WHERE id = ?").get(timer.id) as Record<string, unknown>;
    expect(job).toMatchObject({
      kind: "case-timer",
      state: "EXECUTABLE",
      instance_id: started.id,
      definition_id: defId,
      due_at: timer.due_at,
      retries: 3,
    });
    const rt = createCaseRuntime({ kernel: createKernel({ db, clock }) });
    expect(rt.timersOf(T, started.id)).toEqual([{ elementId: "piTimer", dueAt: "2025-01-06T10:00:00.000Z" }]);
    expect(await rt.runDueTimers()).toBe(0);
    clock.advance(60 * 60_000);
    expect(await rt.runDueTimers()).toBe(1);
    expect(await rt.runDueTimers()).toBe(0);
    expect(rt.timersOf(T, started.id)).toEqual([]);
    expect(rt.getCase(T, started.id).activeTasks.map((t) => t.name)).toEqual(["A"]);
  });
});
