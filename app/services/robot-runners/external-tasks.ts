import { and, eq, sql } from "drizzle-orm";
import { robots } from "../../../db/platform/schema";
import { topicOf } from "../../runtime/kernel/external-jobs";
import type { JobRow } from "../../runtime/kernel/rows";

export { MAX_LONG_POLL_MS } from "../../runtime/kernel/external-jobs";
import type { TenantCtx } from "../context";
import { BadRequestError, ForbiddenError } from "../errors";
import { configOf, parametersOf } from "../robots/manage";
import { resolveConfig } from "../robots/parameters";
import { resolveTenantVariable } from "../tenant-variables/resolve";
import { lockOwnerOf } from "./manage";
import { prepared } from "../prepared";
import { fromCamundaVariables, toCamundaVariables } from "./camunda-values";

export type ExternalTasksCtx = TenantCtx<"platformDb" | "db" | "processRuntime" | "caseRuntime">;

export interface FetchInput {
  maxTasks: number;
  asyncResponseTimeout?: number;
  /** Camunda's: higher `camunda:taskPriority` first. */
  usePriority?: boolean;
  /** `variables`: only these are handed over (absent: all). */
  topics: { topicName: string; lockDuration: number; variables?: string[] }[];
}

/** Only a runner's token reaches the external task API; its locks are held in its name. */
function ownerOf(ctx: ExternalTasksCtx): string {
  const id = ctx.actor.kind === "robot" ? ctx.actor.runnerId : undefined;
  if (!id) throw new ForbiddenError("The external task API takes a robot runner's token");
  return lockOwnerOf(id);
}

/**
 * POST /a/robot-runners/external-task/fetchAndLock: locks up to maxTasks jobs of the topics (robot keys of the tenant),
 * waiting up to asyncResponseTimeout for work. Each task carries the instance's variables and the robot's
 * configuration, secret parameters resolved from tenant variables here, at hand-off, and nowhere else.
 */
export async function fetchAndLock({
  ctx,
  input,
  signal,
}: {
  ctx: ExternalTasksCtx;
  input: FetchInput;
  signal?: AbortSignal;
}) {
  const owner = ownerOf(ctx);
  const names = [...new Set(input.topics.map((t) => t.topicName))];
  const db = ctx.platformDb;
  const byKey = prepared(db, "robotByTenantKey", () =>
    db
      .select()
      .from(robots)
      .where(and(eq(robots.tenantId, sql.placeholder("tenantId")), eq(robots.key, sql.placeholder("key"))))
      .prepare(),
  );
  const found = names.flatMap((key) => byKey.all({ tenantId: ctx.tenant.id, key }));
  const unknown = names.filter((n) => !found.some((r) => r.key === n));
  if (unknown.length)
    throw new BadRequestError(`Topics must be robot keys of the tenant; unknown: ${unknown.join(", ")}`, [
      { field: "topics", message: `unknown robots: ${unknown.join(", ")}` },
    ]);
  const lockMs = Object.fromEntries(input.topics.map((t) => [t.topicName, t.lockDuration]));
  const wanted = new Map(input.topics.map((t) => [t.topicName, t.variables]));
  const jobs = ctx.processRuntime.externalJobs;
  const rows = await jobs.fetchAndLock(
    { tenantId: ctx.tenant.id, owner, topics: names, maxTasks: input.maxTasks, lockMs, usePriority: input.usePriority },
    input.asyncResponseTimeout ?? 0,
    signal,
  );
  const read = (variable: string) => resolveTenantVariable(ctx.db, variable);
  // One robot's parameters are the same for every task of this hand-off: parsed and resolved once per topic.
  const parameters = new Map<string, Record<string, unknown>>();
  const parametersFor = (topic: string) => {
    let p = parameters.get(topic);
    if (!p) {
      const robot = found.find((r) => r.key === topic)!;
      parameters.set(topic, (p = resolveConfig(parametersOf(robot), configOf(robot), read)));
    }
    return p;
  };
  return rows.map((row) => {
    const topic = topicOf(row);
    const caseId = caseOf(row);
    return {
      id: row.id,
      topicName: topic,
      workerId: ctx.actor.runnerId!,
      lockExpirationTime: new Date(row.lock_expires_at!).toISOString(),
      processInstanceId: caseId ? null : row.instance_id,
      caseInstanceId: caseId,
      activityId: row.activity_id,
      retries: row.retries,
      errorMessage: row.exception,
      errorDetails: (JSON.parse(row.data) as { errorDetails?: string }).errorDetails ?? null,
      priority: (JSON.parse(row.data) as { priority?: number }).priority ?? 0,
      // Typed as Camunda's REST API answers (the client's task.variables.get() reads them).
      variables: toCamundaVariables(
        caseId
          ? (ctx.caseRuntime.getCase(ctx.tenant.id, caseId).variables as Record<string, unknown>)
          : row.execution_id
            ? ctx.processRuntime.getVariablesAt(ctx.tenant.id, row.instance_id!, row.execution_id)
            : ctx.processRuntime.getVariables(ctx.tenant.id, row.instance_id!),
        wanted.get(topic),
      ),
      parameters: parametersFor(topic),
    };
  });
}

/** The case a robot job belongs to (a CMMN task's job says so in its data), or null for a process's step. */
function caseOf(row: JobRow): string | null {
  return (JSON.parse(row.data) as { case?: boolean }).case ? row.instance_id : null;
}

/** The case of a job the runner holds (NotFound / Conflict as for any held job), or null. */
function caseOfHeld(ctx: ExternalTasksCtx, owner: string, id: string): string | null {
  return caseOf(ctx.processRuntime.externalJobs.heldBy(ctx.tenant.id, owner, id));
}

/** POST …/{id}/complete: the runner's variables are set and the step (a process's, or a case's task) moves on. */
export async function completeExternalTask({
  ctx,
  input,
}: {
  ctx: ExternalTasksCtx;
  input: { id: string; variables?: Record<string, unknown> };
}) {
  const owner = ownerOf(ctx);
  const variables = fromCamundaVariables(input.variables) ?? {};
  const rt = caseOfHeld(ctx, owner, input.id) ? ctx.caseRuntime : ctx.processRuntime;
  await rt.completeExternal(ctx.tenant.id, owner, input.id, variables);
}

/** POST …/{id}/failure: retries left and the wait before the next try; no retries left dead-letters the job. */
export async function failExternalTask({
  ctx,
  input,
}: {
  ctx: ExternalTasksCtx;
  input: { id: string; errorMessage: string; errorDetails?: string; retries?: number; retryTimeout?: number };
}) {
  return ctx.processRuntime.externalJobs.fail(ctx.tenant.id, ownerOf(ctx), input.id, {
    message: input.errorMessage,
    details: input.errorDetails,
    retries: input.retries,
    retryTimeoutMs: input.retryTimeout,
  });
}

/**
 * POST …/{id}/bpmnError: thrown at the step, caught by its boundary events or an event subprocess (422 if none). A
 * case's task has no error events: 422, the job stays locked (the runner reports a failure instead).
 */
export async function externalTaskBpmnError({
  ctx,
  input,
}: {
  ctx: ExternalTasksCtx;
  input: { id: string; errorCode: string; errorMessage?: string; variables?: Record<string, unknown> };
}) {
  const owner = ownerOf(ctx);
  const variables = fromCamundaVariables(input.variables);
  if (caseOfHeld(ctx, owner, input.id)) ctx.caseRuntime.externalBpmnError(ctx.tenant.id, owner, input.id);
  await ctx.processRuntime.externalBpmnError(ctx.tenant.id, owner, input.id, {
    code: input.errorCode,
    message: input.errorMessage,
    variables,
  });
}

/** POST …/{id}/extendLock: a new lock of newDuration ms from now, for the holder only. */
export async function extendExternalTaskLock({
  ctx,
  input,
}: {
  ctx: ExternalTasksCtx;
  input: { id: string; newDuration: number };
}) {
  await ctx.processRuntime.externalJobs.extendLock(ctx.tenant.id, ownerOf(ctx), input.id, input.newDuration);
}

/** POST …/{id}/unlock: the holder gives the task back; it is due again at once for any runner of its topic. */
export async function unlockExternalTask({ ctx, input }: { ctx: ExternalTasksCtx; input: { id: string } }) {
  await ctx.processRuntime.externalJobs.unlock(ctx.tenant.id, ownerOf(ctx), input.id);
}

/** GET …/{id}/errorDetails: what the last failure reported besides its message ("" when none), for any runner. */
export function externalTaskErrorDetails({ ctx, input }: { ctx: ExternalTasksCtx; input: { id: string } }): string {
  ownerOf(ctx);
  return ctx.processRuntime.externalJobs.errorDetails(ctx.tenant.id, input.id) ?? "";
}
