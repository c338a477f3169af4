import { and, asc, eq } from "drizzle-orm";
import type { AgentTurnAnswer, LoopEntry } from "../../../../engine/bpmn";
import { agentLoopSteps, agentLoopTurns, agentToolCalls } from "../../../../db/tenant/schema";
import type { TenantCtx } from "../../context";
import { digestOf, type ToolCallRecord } from "../tool-log";
import { writeCalls } from "./step-store";

type ResultEntry = Extract<LoopEntry, { kind: "result" }>;

/** The answer a turn of a loop already had (asked before a restart or a recomputed command), or null. */
export function storedTurn(ctx: TenantCtx<"db">, scopeId: string, turn: number): AgentTurnAnswer | null {
  const row = ctx.db.orm
    .select({ answer: agentLoopTurns.answer })
    .from(agentLoopTurns)
    .where(and(eq(agentLoopTurns.scopeId, scopeId), eq(agentLoopTurns.turn, turn)))
    .get();
  return row ? (JSON.parse(row.answer) as AgentTurnAnswer) : null;
}

export interface TurnRecord {
  instanceId: string;
  scopeId: string;
  subProcessId: string;
  agentKey: string;
  turn: number;
  results: ResultEntry[];
  answer: AgentTurnAnswer;
  tokens: number;
  durationMs: number;
  /** the audit records of the turn's last model step (the model call, its own tools' calls, refusals) */
  calls: ToolCallRecord[];
}

/**
 * Keeps a turn the moment the model answered, with the records of the tool activities whose results it was given and
 * those of its last model step, in one transaction: a turn asked again finds it (never asked twice), and those
 * records are written once. The turn's step records (step-store.ts) go in the same transaction: its answer holds
 * every step's messages. Answers the turn as stored: a racing run that stored it first wins.
 */
export function storeTurn(ctx: TenantCtx<"db">, t: TurnRecord): AgentTurnAnswer {
  const now = new Date(ctx.clock.now()).toISOString();
  return ctx.db.orm.transaction((tx) => {
    // The turn first: when two runs of the same turn race, the second finds it written and adds no tool records.
    const written = tx
      .insert(agentLoopTurns)
      .values({
        id: Bun.randomUUIDv7(),
        instanceId: t.instanceId,
        scopeId: t.scopeId,
        subProcessId: t.subProcessId,
        agentKey: t.agentKey,
        turn: t.turn,
        results: JSON.stringify(t.results),
        answer: JSON.stringify(t.answer),
        tokens: t.tokens,
        durationMs: t.durationMs,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: agentLoopTurns.id })
      .all();
    if (!written.length) return storedTurn(ctx, t.scopeId, t.turn) ?? t.answer;
    tx.delete(agentLoopSteps)
      .where(and(eq(agentLoopSteps.scopeId, t.scopeId), eq(agentLoopSteps.turn, t.turn)))
      .run();
    for (const r of t.results)
      tx.insert(agentToolCalls)
        .values({
          id: Bun.randomUUIDv7(),
          instanceId: t.instanceId,
          activity: t.subProcessId,
          agentKey: t.agentKey,
          tool: r.tool,
          argsDigest: digestOf(r.args),
          outcome: r.ok ? "OK" : "ERROR",
          detail: r.ok ? null : String((r.value as { error?: string })?.error ?? "").slice(0, 1000),
          durationMs: Math.max(0, r.endedAt - r.startedAt),
          turn: t.turn - 1,
          tokens: null,
          createdAt: new Date(r.endedAt).toISOString(),
        })
        .run();
    writeCalls(tx, t.calls, ctx.clock.now());
    return t.answer;
  });
}

/** The turns of an instance's agent loops, oldest first: the conversation as it was held. */
export function turnsOf(ctx: TenantCtx<"db">, instanceId: string) {
  return ctx.db.orm
    .select()
    .from(agentLoopTurns)
    .where(eq(agentLoopTurns.instanceId, instanceId))
    .orderBy(asc(agentLoopTurns.createdAt), asc(agentLoopTurns.turn))
    .all()
    .map((r) => {
      const answer = JSON.parse(r.answer) as AgentTurnAnswer;
      return {
        subProcessId: r.subProcessId,
        scopeId: r.scopeId,
        agentKey: r.agentKey,
        turn: r.turn,
        results: (JSON.parse(r.results) as ResultEntry[]).map((x) => ({
          callId: x.callId,
          tool: x.tool,
          ok: x.ok,
          value: x.value,
          durationMs: Math.max(0, x.endedAt - x.startedAt),
        })),
        messages: answer.messages,
        calls: answer.calls,
        final: answer.final ?? null,
        tokens: r.tokens,
        durationMs: r.durationMs,
        createdAt: r.createdAt,
      };
    });
}
