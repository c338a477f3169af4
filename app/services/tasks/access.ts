import type { TaskView } from "../../runtime/bpmn";
import type { TenantCtx } from "../context";
import { kindOfTask } from "../instances/kind-of";
import { visibilityOf } from "../instances/visibility";

export type TaskAccessCtx = TenantCtx<"processRuntime" | "caseRuntime" | "platformDb">;

/** The task if the caller may see it; another tenant's id, an unknown id and an invisible task all answer 404. */
export function visibleTask(ctx: TaskAccessCtx, taskId: string): TaskView {
  return ctx.processRuntime.getTask(ctx.tenant.id, taskId, visibilityOf(ctx));
}

/** Variables the task sees: its process scope, or its case's variables. */
export function variablesOfTask(ctx: TaskAccessCtx, task: TaskView): Record<string, unknown> {
  if (kindOfTask(ctx, task) === "CMMN")
    return ctx.caseRuntime.getCase(ctx.tenant.id, task.instanceId).variables as Record<string, unknown>;
  return ctx.processRuntime.getTaskVariables(ctx.tenant.id, task.id);
}
