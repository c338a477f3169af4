import type { TenantCtx } from "../context";
import { ConflictError } from "../errors";
import { completeTask, type TaskOperationCtx } from "../tasks/operations";
import { visibleTask } from "../tasks/access";
import { requireMcpPolicy } from "./policy";
import { callerUserId, type PreviewCtx } from "./preview";

/**
 * svc_run_task_complete (spec, MCP-gated execution): at once, policy START_AND_COMPLETE, the task already claimed by
 * the caller (nothing claims on the way), and the preview's token for exactly these variables. One task per call;
 * then POST /a/tasks/{id}/complete's own operation runs, its actor on channel MCP, which the task history records.
 */
export async function completeOverMcp({
  ctx,
  input,
}: {
  ctx: TaskOperationCtx & PreviewCtx & TenantCtx<"admission">;
  input: { taskId: string; variables: Record<string, unknown>; confirmationToken: string };
}) {
  const userId = callerUserId(ctx);
  const task = visibleTask(ctx, input.taskId);
  requireMcpPolicy(ctx, task.definitionKey, "complete");
  if (task.state === "OPEN" && task.assignee !== userId) {
    throw new ConflictError(
      `Task ${task.id} is not claimed by you: claim it first with svc_run_task_claim (no tool claims on the way to completing)`,
    );
  }
  ctx.mcpConfirmations.verify(
    input.confirmationToken,
    { taskId: task.id, userId, variables: input.variables },
    ctx.clock.now(),
  );
  return completeTask({ ctx, input: { taskId: task.id, variables: input.variables } });
}
