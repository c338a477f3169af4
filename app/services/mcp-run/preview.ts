import type { TenantCtx } from "../context";
import { ForbiddenError } from "../errors";
import { formForVersion, missingRequiredFields } from "../forms/task-forms";
import { kindOfTask } from "../instances/kind-of";
import { visibilityOf } from "../instances/visibility";
import { type TaskAccessCtx, variablesOfTask, visibleTask } from "../tasks/access";

export type PreviewCtx = TaskAccessCtx & TenantCtx<"db" | "mcpConfirmations">;

export interface PreviewInput {
  taskId: string;
  variables: Record<string, unknown>;
}

/** The user on whose behalf a token is signed: MCP callers are always users (Basic with e-mail and password). */
export function callerUserId(ctx: Pick<TenantCtx<never>, "actor">): string {
  if (!ctx.actor.userId) throw new ForbiddenError("Only a user can preview or complete a task over MCP");
  return ctx.actor.userId;
}

/**
 * svc_run_task_preview: what completing would write and where the instance could go; writes nothing. The paths are
 * the model's (conditions shown, never evaluated: rule 3). The confirmationToken binds task, user and variables.
 */
export function previewCompletion({ ctx, input }: { ctx: PreviewCtx; input: PreviewInput }) {
  const userId = callerUserId(ctx);
  const task = visibleTask(ctx, input.taskId);
  const policy = ctx.processRuntime.getDefinitionConfig(ctx.tenant.id, task.definitionKey).mcpPolicy;
  const form = task.formVersionId ? formForVersion(ctx.db, task.formVersionId) : null;
  const current = variablesOfTask(ctx, task);
  const missing = form ? missingRequiredFields(form.schema, { ...current, ...input.variables }) : [];
  const paths =
    kindOfTask(ctx, task) === "CMMN" ? [] : ctx.processRuntime.taskPaths(ctx.tenant.id, task.id, visibilityOf(ctx));
  const changes = Object.entries(input.variables).map(([name, value]) => ({
    name,
    value,
    previous: name in current ? current[name] : null,
    isNew: !(name in current),
  }));
  const blockers = [
    ...(task.state !== "OPEN" ? [`the task is ${task.state.toLowerCase()}`] : []),
    ...(policy !== "START_AND_COMPLETE" ? [`the process's MCP policy is ${policy}`] : []),
    ...(task.assignee !== userId ? ["the task is not claimed by you (svc_run_task_claim)"] : []),
    ...(missing.length ? [`required form fields are missing: ${missing.join(", ")}`] : []),
  ];
  const signed = ctx.mcpConfirmations.sign({ taskId: task.id, userId, variables: input.variables }, ctx.clock.now());
  return {
    taskId: task.id,
    taskName: task.name,
    instanceId: task.instanceId,
    definitionKey: task.definitionKey,
    mcpPolicy: policy,
    writes: changes,
    missingRequiredFields: missing,
    nextActivities: paths.map((p) => ({
      activityId: p.target.id,
      name: p.target.name,
      type: p.target.type,
      via: p.via,
      conditional: p.conditional,
      condition: p.conditions.length ? p.conditions.join(" and ") : null,
      isDefault: p.isDefault,
    })),
    canComplete: blockers.length === 0,
    blockers,
    confirmationToken: signed.token,
    expiresAt: signed.expiresAt,
  };
}
