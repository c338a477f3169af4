import { and, asc, eq } from "drizzle-orm";
import { agentLoopSteps, agentToolCalls } from "../../../../db/tenant/schema";
import type { TenantCtx } from "../../context";
import { type ToolCallRecord, toolCallRow } from "../tool-log";

/** One model step of a turn still being asked: what it added to the conversation and what it spent. */
export interface StepRecord {
  /** the model's messages of the step, with its own tools' results (and refusals told to the model) */
  messages: unknown[];
  /** the agent's outputs once the step ran (set_output) */
  outputs: Record<string, unknown>;
  tokens: number;
  /** tool calls the model asked in the step (counted against the agent's limit) */
  toolCalls: number;
  durationMs: number;
}

/** The steps of a turn already answered, in order (a turn run again replays them). */
export function storedSteps(ctx: TenantCtx<"db">, scopeId: string, turn: number): StepRecord[] {
  return ctx.db.orm
    .select({ data: agentLoopSteps.data })
    .from(agentLoopSteps)
    .where(and(eq(agentLoopSteps.scopeId, scopeId), eq(agentLoopSteps.turn, turn)))
    .orderBy(asc(agentLoopSteps.step))
    .all()
    .map((r) => JSON.parse(r.data) as StepRecord);
}

/** Writes the audit records of a step (the model call, its own tools' calls, refusals) inside a transaction. */
export function writeCalls(tx: Pick<TenantCtx<"db">["db"]["orm"], "insert">, calls: ToolCallRecord[], now: number) {
  if (calls.length)
    tx.insert(agentToolCalls)
      .values(calls.map((c) => toolCallRow(c, now)))
      .run();
}

/**
 * Keeps one step of a turn the moment the model answered it, with its audit records, in one transaction: a crash
 * keeps both or neither. False when a racing run of the same turn stored this step first (its records are kept, not
 * these): the caller replays the stored steps instead of its own.
 */
export function storeStep(
  ctx: TenantCtx<"db">,
  s: { instanceId: string; scopeId: string; turn: number; step: number; record: StepRecord; calls: ToolCallRecord[] },
): boolean {
  const now = ctx.clock.now();
  return ctx.db.orm.transaction((tx) => {
    const written = tx
      .insert(agentLoopSteps)
      .values({
        id: Bun.randomUUIDv7(),
        instanceId: s.instanceId,
        scopeId: s.scopeId,
        turn: s.turn,
        step: s.step,
        data: JSON.stringify(s.record),
        createdAt: new Date(now).toISOString(),
      })
      .onConflictDoNothing()
      .returning({ id: agentLoopSteps.id })
      .all();
    if (!written.length) return false;
    writeCalls(tx, s.calls, now);
    return true;
  });
}
