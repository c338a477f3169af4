import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { runMigrations } from "../../../../db/migrate";
import * as tenantSchema from "../../../../db/tenant/schema";
import type { TenantCtx } from "../../context";
import type { ToolCallRecord } from "../tool-log";
import { type StepRecord, storedSteps, storeStep } from "./step-store";
import { storeTurn } from "./turn-store";

// Two runs of one turn racing (a job run again while the first still thinks): each step and the turn are kept once,
// with their audit records once; the turn's step records go with the transaction that stores the turn.

function tenantCtx() {
  const sqlite = new Database(":memory:");
  runMigrations(sqlite, "tenant");
  const ctx = { db: { sqlite, orm: drizzle(sqlite, { schema: tenantSchema }) }, clock: { now: () => 1_000 } };
  return { ctx: ctx as unknown as TenantCtx<"db">, sqlite };
}
const call = (tool: string): ToolCallRecord => ({
  instanceId: "i1",
  activity: "handle",
  agentKey: "a",
  tool,
  args: {},
  outcome: "OK",
  detail: null,
  durationMs: 1,
  turn: 0,
});
const step = (text: string): StepRecord => ({
  messages: [{ role: "assistant", content: text }],
  outputs: { seen: text },
  tokens: 5,
  toolCalls: 1,
  durationMs: 3,
});
const toolsRecorded = (sqlite: Database) =>
  sqlite
    .query<{ tool: string }, []>("SELECT tool FROM agent_tool_calls ORDER BY created_at, id")
    .all()
    .map((r) => r.tool);

test("a step is kept once: a racing run's same step is refused with its records, and replays the kept one", () => {
  const { ctx, sqlite } = tenantCtx();
  const at = { instanceId: "i1", scopeId: "s1", turn: 0 };
  expect(
    storeStep(ctx, { ...at, step: 0, record: step("first"), calls: [call("model"), call("read_variables")] }),
  ).toBe(true);
  expect(
    storeStep(ctx, { ...at, step: 0, record: step("racer"), calls: [call("model"), call("read_variables")] }),
  ).toBe(false);
  expect(storeStep(ctx, { ...at, step: 1, record: step("second"), calls: [call("model")] })).toBe(true);
  expect(storedSteps(ctx, "s1", 0).map((s) => s.outputs.seen)).toEqual(["first", "second"]);
  expect(storedSteps(ctx, "s1", 1)).toEqual([]);
  expect(toolsRecorded(sqlite)).toEqual(["model", "read_variables", "model"]);
});

test("storing the turn deletes its steps in the same transaction, once: a racing run gets the stored answer and writes nothing", () => {
  const { ctx, sqlite } = tenantCtx();
  storeStep(ctx, { instanceId: "i1", scopeId: "s1", turn: 0, step: 0, record: step("kept"), calls: [call("model")] });
  storeStep(ctx, { instanceId: "i1", scopeId: "s2", turn: 0, step: 0, record: step("other"), calls: [] });
  const turn = (answerText: string) => ({
    instanceId: "i1",
    scopeId: "s1",
    subProcessId: "handle",
    agentKey: "a",
    turn: 0,
    results: [],
    answer: {
      messages: [{ role: "assistant", content: answerText }],
      calls: [],
      final: {},
      outputs: {},
      spent: { modelCalls: 2, toolCalls: 1, tokens: 10 },
    },
    tokens: 10,
    durationMs: 6,
    calls: [call("model")],
  });
  expect(storeTurn(ctx, turn("winner")).messages).toEqual([{ role: "assistant", content: "winner" }]);
  expect(storeTurn(ctx, turn("racer")).messages).toEqual([{ role: "assistant", content: "winner" }]);
  expect(storedSteps(ctx, "s1", 0)).toEqual([]);
  // another loop's steps are its own
  expect(storedSteps(ctx, "s2", 0).length).toBe(1);
  expect(toolsRecorded(sqlite)).toEqual(["model", "model"]);
});
