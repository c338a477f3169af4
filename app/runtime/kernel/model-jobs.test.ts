import { expect, test } from "bun:test";
import { makeCases, T } from "../../../test/fixtures/cmmn/harness";
import type { JobRow } from "./rows";

// Jobs that await a model (an agent step, an agent loop's turn) run side by side in one executor pass; every other
// job still runs one after the other, as before.
test("jobs awaiting a model run side by side, other jobs one at a time", async () => {
  const { db, kernel } = makeCases();
  const insert = db.query(
    "INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, data, created_at) VALUES (?, ?, NULL, NULL, 'd', 'a', 'async', 'EXECUTABLE', 0, 3, ?, 0)",
  );
  for (let i = 0; i < 4; i++) insert.run(`agent-${i}`, T, JSON.stringify({ agent: "a", agentTurn: true }));
  for (let i = 0; i < 3; i++) insert.run(`plain-${i}`, T, "{}");
  const running = { agent: 0, plain: 0 };
  const most = { agent: 0, plain: 0 };
  const release: (() => void)[] = [];
  kernel.jobs.register("BPMN", async (job: JobRow) => {
    const kind = job.id.startsWith("agent") ? "agent" : "plain";
    running[kind]++;
    most[kind] = Math.max(most[kind], running[kind]);
    // Each job waits until every agent job has started or, for a plain job, until the next tick.
    if (kind === "agent") await new Promise<void>((ok) => release.push(ok) === 4 && release.forEach((r) => r()));
    else await Promise.resolve();
    running[kind]--;
    db.run("DELETE FROM jobs WHERE id = ?", [job.id]);
    return true;
  });
  expect(await kernel.jobs.runDue("BPMN")).toBe(7);
  expect(most).toEqual({ agent: 4, plain: 1 });
});
