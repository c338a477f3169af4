import { and, count, desc, eq, type SQL, sql } from "drizzle-orm";
import { aiTaskFailures } from "../../../db/tenant/schema";
import { type Page, pageOf, pageParams } from "../../../db/pagination";
import type { TenantCtx } from "../context";
import { notify } from "../notifications/notify";

/** Why an AI step failed (docs/ai.md). */
export const FAILURE_TYPES = [
  "MODEL_UNAVAILABLE",
  "NO_ACTIVE_MODEL",
  "TIMEOUT",
  "QUOTA_EXCEEDED",
  "INVALID_OUTPUT",
  "TOOL_REFUSED",
  "TOOL_STEPS_EXCEEDED",
  "AGENT_NOT_FOUND",
  "AGENT_NOT_IN_PROCESS",
  // The limits of an agent loop over an ad-hoc subprocess (its wall time is a TIMEOUT).
  "MODEL_CALLS_EXCEEDED",
  "TOOL_CALLS_EXCEEDED",
  "TOKENS_EXCEEDED",
] as const;
export type FailureType = (typeof FAILURE_TYPES)[number];

export type FailuresCtx = TenantCtx<"db" | "platformDb">;
type Row = typeof aiTaskFailures.$inferSelect;

export interface AiTaskFailure {
  id: string;
  engine: "BPMN" | "CMMN";
  processKey: string;
  instanceId: string | null;
  businessKey: string | null;
  activity: string;
  agentKey: string;
  failureType: string;
  reason: string;
  attemptCount: number;
  createdAt: string;
  updatedAt: string;
}

const out = (r: Row): AiTaskFailure => ({
  id: r.id,
  engine: r.engine,
  processKey: r.processKey,
  instanceId: r.instanceId,
  businessKey: r.businessKey,
  activity: r.activity,
  agentKey: r.agentKey,
  failureType: r.failureType,
  reason: r.reason,
  attemptCount: r.attemptCount,
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export interface FailedStep {
  engine: "BPMN" | "CMMN";
  processKey: string;
  instanceId: string;
  businessKey: string | null;
  activity: string;
  agentKey: string;
  startedBy: string | null;
}

/**
 * Records a failed AI step: one row per step (engine, process key, business key or else instance id, activity), its
 * attemptCount raised when the same step fails again. The first failure notifies the user who started it
 * (AI_TASK_FAILED); a start with no user behind it (API key, system) notifies nobody.
 */
export function recordAiFailure(
  ctx: FailuresCtx,
  step: FailedStep,
  failure: { type: FailureType; reason: string },
): AiTaskFailure {
  const now = new Date(ctx.clock.now()).toISOString();
  const stepKey = [step.engine, step.processKey, step.businessKey ?? `#${step.instanceId}`, step.activity].join("|");
  const row = ctx.db.orm
    .insert(aiTaskFailures)
    .values({
      id: Bun.randomUUIDv7(),
      stepKey,
      engine: step.engine,
      processKey: step.processKey,
      instanceId: step.instanceId,
      businessKey: step.businessKey,
      activity: step.activity,
      agentKey: step.agentKey,
      failureType: failure.type,
      reason: failure.reason,
      attemptCount: 1,
      startedBy: step.startedBy,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: aiTaskFailures.stepKey,
      set: {
        attemptCount: sqlIncrement,
        failureType: failure.type,
        reason: failure.reason,
        instanceId: step.instanceId,
        updatedAt: now,
      },
    })
    .returning()
    .get();
  if (row.attemptCount === 1 && step.startedBy)
    notify(
      ctx.platformDb,
      {
        tenantId: ctx.tenant.id,
        userId: step.startedBy,
        type: "AI_TASK_FAILED",
        title: `AI step failed: ${step.activity}`,
        body: `The AI step "${step.activity}" of ${step.processKey}${step.businessKey ? ` (${step.businessKey})` : ""} failed (${failure.type}): ${failure.reason}`,
        link: `/ai-task-failures?businessKey=${encodeURIComponent(step.businessKey ?? "")}`,
      },
      ctx.clock.now(),
    );
  return out(row);
}

const sqlIncrement = sql`${aiTaskFailures.attemptCount} + 1`;

/** GET /a/ai-task-failures?businessKey=&page=&size=: the tenant's failure rows, newest first (size default 20). */
export function listAiTaskFailures({
  ctx,
  input,
}: {
  ctx: FailuresCtx;
  input: { businessKey?: string; page?: number; size?: number };
}): Page<AiTaskFailure> {
  const { page, size, offset } = pageParams(input.page, input.size, 20, 200);
  const where: SQL | undefined = input.businessKey ? eq(aiTaskFailures.businessKey, input.businessKey) : undefined;
  const total = ctx.db.orm.select({ n: count() }).from(aiTaskFailures).where(and(where)).get()?.n ?? 0;
  const rows = ctx.db.orm
    .select()
    .from(aiTaskFailures)
    .where(and(where))
    .orderBy(desc(aiTaskFailures.updatedAt), desc(aiTaskFailures.id))
    .limit(size)
    .offset(offset)
    .all();
  return pageOf(rows.map(out), total, page, size);
}

/** The AI failures of one business key, newest first (what the MCP tool svc_run_why_failed answers). */
export function failuresByBusinessKey({ ctx, input }: { ctx: FailuresCtx; input: { businessKey: string } }) {
  return listAiTaskFailures({ ctx, input: { businessKey: input.businessKey, size: 200 } }).content;
}
