import { engineHandlesOf, type RequestCtx } from "../context";
import type { TaskView } from "../../runtime/bpmn";
import { visibilityOf } from "../process/visibility";

/** The task if the caller may see it; another tenant's id, an unknown id and an invisible task all answer 404. */
export function visibleTask(ctx: RequestCtx, taskId: string): TaskView {
  return ctx.processRuntime.getTask(ctx.tenant.id, taskId, visibilityOf(ctx));
}

// A deployed version never changes type, so the answer per definition id can be kept.
const typeOfDefinition = new Map<string, string>();

/** True when the task belongs to a case (the shared task table holds both engines' tasks). */
export function isCaseTask(ctx: RequestCtx, task: TaskView): boolean {
  let type = typeOfDefinition.get(task.definitionId);
  if (type === undefined) {
    const row = engineHandlesOf(ctx)
      .engineSqlite.query("SELECT type FROM definitions WHERE id = ? AND tenant_id = ?")
      .get(task.definitionId, ctx.tenant.id) as { type: string } | null;
    if (!row) return false;
    type = row.type;
    if (typeOfDefinition.size > 10_000) typeOfDefinition.clear();
    typeOfDefinition.set(task.definitionId, type);
  }
  return type === "CMMN";
}

/** Variables the task sees: its process scope, or its case's variables. */
export function variablesOfTask(ctx: RequestCtx, task: TaskView): Record<string, unknown> {
  if (isCaseTask(ctx, task))
    return ctx.caseRuntime.getCase(ctx.tenant.id, task.instanceId).variables as Record<string, unknown>;
  return ctx.processRuntime.getTaskVariables(ctx.tenant.id, task.id);
}
