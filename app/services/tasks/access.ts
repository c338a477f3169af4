import type { RequestCtx } from "../context";
import type { TaskView } from "../process-runtime";
import { visibilityOf } from "../process/visibility";

/** The task if the caller may see it; another tenant's id, an unknown id and an invisible task all answer 404. */
export function visibleTask(ctx: RequestCtx, taskId: string): TaskView {
  return ctx.platform.processRuntime.getTask(ctx.tenant.id, taskId, visibilityOf(ctx));
}
