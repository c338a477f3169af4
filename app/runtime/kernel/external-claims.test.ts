import { Database } from "bun:sqlite";
import { describe, expect, test } from "bun:test";
import { runMigrations } from "../../../db/migrate";
import { nextTakeableAt, takeableJobs } from "./external-claims";

// The claim queries on the engine schema: unlocked and expired-lock jobs merged in the order one query gave (due
// time, or priority first), and the next wake-up over due times and lock ends.
function db() {
  const d = new Database(":memory:");
  runMigrations(d, "engine");
  return d;
}
type Job = { id: string; due: number; topic?: string; owner?: string; lockUntil?: number; priority?: number };
function add(d: Database, j: Job) {
  d.query(
    `INSERT INTO jobs (id, tenant_id, instance_id, definition_id, activity_id, kind, state, due_at, retries, lock_owner,
      lock_expires_at, data, created_at) VALUES (?, 't', NULL, 'd', 'a', 'external', 'EXECUTABLE', ?, 3, ?, ?, ?, 0)`,
  ).run(
    j.id,
    j.due,
    j.owner ?? null,
    j.lockUntil ?? null,
    JSON.stringify({ topic: j.topic ?? "x", ...(j.priority ? { priority: j.priority } : {}) }),
  );
}
const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("robot job claims", () => {
  test("unlocked and expired-lock jobs, oldest due first; held, future and other topics' jobs not", () => {
    const d = db();
    add(d, { id: "held", due: 1, owner: "r1", lockUntil: 500 });
    add(d, { id: "expired", due: 2, owner: "r1", lockUntil: 50 });
    add(d, { id: "free3", due: 3 });
    add(d, { id: "free0", due: 0 });
    add(d, { id: "other", due: 0, topic: "y" });
    add(d, { id: "later", due: 400 });
    expect(ids(takeableJobs(d, { tenantId: "t", topics: ["x"] }, 100, 10))).toEqual(["free0", "expired", "free3"]);
    expect(ids(takeableJobs(d, { tenantId: "t", topics: ["x"] }, 100, 2))).toEqual(["free0", "expired"]);
    expect(ids(takeableJobs(d, { tenantId: "t", topics: ["x", "y"] }, 100, 10))).toHaveLength(4);
    expect(ids(takeableJobs(d, { tenantId: "other", topics: ["x"] }, 100, 10))).toEqual([]);
  });

  test("usePriority: the highest priority first, then the oldest", () => {
    const d = db();
    add(d, { id: "low", due: 0 });
    add(d, { id: "high", due: 5, priority: 50 });
    add(d, { id: "expiredMid", due: 1, owner: "r", lockUntil: 10, priority: 20 });
    expect(ids(takeableJobs(d, { tenantId: "t", topics: ["x"], usePriority: true }, 100, 10))).toEqual([
      "high",
      "expiredMid",
      "low",
    ]);
  });

  test("the next wake-up: a later due time, the end of a lock, or null", () => {
    const d = db();
    expect(nextTakeableAt(d, "t", ["x"], 100)).toBeNull();
    add(d, { id: "later", due: 400 });
    expect(nextTakeableAt(d, "t", ["x"], 100)).toBe(400);
    add(d, { id: "held", due: 1, owner: "r", lockUntil: 300 });
    expect(nextTakeableAt(d, "t", ["x"], 100)).toBe(301);
    add(d, { id: "expiredNotDue", due: 200, owner: "r", lockUntil: 50 });
    expect(nextTakeableAt(d, "t", ["x"], 100)).toBe(200);
    expect(nextTakeableAt(d, "t", ["y"], 100)).toBeNull();
  });
});
