import type { RequestCtx } from "../context";
import type { TaskView } from "../process-runtime";
import { visibilityOf } from "../process/visibility";

/** The task if the caller may see it; another tenant's id, an unknown id and an invisible task all answer 404. */
export function visibleTask(ctx: RequestCtx, taskId: string): TaskView {
  return ctx.platform.processRuntime.getTask(ctx.tenant.id, taskId, visibilityOf(ctx));
}

/** True when the task belongs to a case (the shared task table holds both engines' tasks). */
export function isCaseTask(ctx: RequestCtx, task: TaskView): boolean {
  const row = ctx.platform.engineSqlite.query("SELECT type FROM definitions WHERE id = ? AND tenant_id = ?").get(task.definitionId, ctx.tenant.id) as { type: string } | null;
  return row?.type === "CMMN";
}

/** Variables the task sees: its process scope, or its case's variables. */
export function variablesOfTask(ctx: RequestCtx, task: TaskView): Record<string, unknown> {
  if (isCaseTask(ctx, task)) return ctx.platform.caseRuntime.getCase(ctx.tenant.id, task.instanceId).variables as Record<string, unknown>;
  return ctx.platform.processRuntime.getTaskVariables(ctx.tenant.id, task.id);
}
