import { asc, eq } from "drizzle-orm";
import { agentToolCalls } from "../../../db/tenant/schema";
import type { TenantCtx } from "../context";

export interface ToolCallRecord {
  instanceId: string | null;
  activity: string | null;
  agentKey: string;
  tool: string;
  args: unknown;
  outcome: "OK" | "ERROR" | "REFUSED";
  detail: string | null;
  durationMs: number;
  /** an agent loop's turn, and (tool "model") the tokens of the model call */
  turn?: number;
  tokens?: number;
  /** when it happened, if not now (a model call is recorded once it answered, as of when it was asked) */
  at?: number;
}

/** sha256 of the arguments' JSON: enough to tell calls apart without keeping what they carried. */
export const digestOf = (args: unknown) =>
  new Bun.CryptoHasher("sha256").update(JSON.stringify(args ?? null)).digest("hex");

/** The row of one tool call record (written at once, or with the step of an agent loop it belongs to). */
export const toolCallRow = (r: ToolCallRecord, now: number) => ({
  id: Bun.randomUUIDv7(),
  instanceId: r.instanceId,
  activity: r.activity,
  agentKey: r.agentKey,
  tool: r.tool,
  argsDigest: digestOf(r.args),
  outcome: r.outcome,
  detail: r.detail?.slice(0, 1000) ?? null,
  durationMs: r.durationMs,
  turn: r.turn ?? null,
  tokens: r.tokens ?? null,
  createdAt: new Date(r.at ?? now).toISOString(),
});

/** Writes one tool call record in the tenant's database (at once: a failing start keeps the record). */
export function recordToolCall(ctx: TenantCtx<"db">, r: ToolCallRecord): void {
  ctx.db.orm.insert(agentToolCalls).values(toolCallRow(r, ctx.clock.now())).run();
}

/** The tool calls made at an instance's steps, oldest first. */
export function toolCallsOf(ctx: TenantCtx<"db">, instanceId: string) {
  return (
    ctx.db.orm
      .select()
      .from(agentToolCalls)
      .where(eq(agentToolCalls.instanceId, instanceId))
      // A loop's tool results are recorded with its next turn: at one instant, the turn orders them before its model call.
      .orderBy(asc(agentToolCalls.createdAt), asc(agentToolCalls.turn), asc(agentToolCalls.id))
      .all()
      .map(({ id, instanceId: _i, ...rest }) => ({ id, ...rest }))
  );
}
