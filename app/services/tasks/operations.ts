import { isActiveMember } from "../members/active-member";
import { isManager, type TenantCtx } from "../context";
import { BadRequestError, ConflictError, ForbiddenError } from "../errors";
import { formForVersion } from "../forms/task-forms";
import { requireFilled } from "../forms/required-check";
import { notify } from "../notifications/notify";
import { kindOfTask } from "../instances/kind-of";
import { type TaskAccessCtx, variablesOfTask, visibleTask } from "./access";
import { admitted } from "../admission";

export type TaskOperationCtx = TaskAccessCtx & TenantCtx<"db">;
type TaskInput = { ctx: TaskOperationCtx; input: { taskId: string } };
type VariablesInput = { ctx: TaskOperationCtx; input: { taskId: string; variables: Record<string, unknown> } };

function userOf(ctx: TaskOperationCtx, what: string): string {
  if (!ctx.actor.userId) throw new ForbiddenError(`An API key has no user and cannot ${what} a task`);
  return ctx.actor.userId;
}

/** POST /a/tasks/{id}/claim: only an unassigned task (or one already yours); claimed by someone else → 409. */
export async function claimTask({ ctx, input: { taskId } }: TaskInput) {
  const userId = userOf(ctx, "claim");
  visibleTask(ctx, taskId);
  return ctx.processRuntime.claim(ctx.tenant.id, taskId, userId);
}

/** POST /a/tasks/{id}/unclaim: the assignee (or a Manager) returns the task to its candidates. */
export async function unclaimTask({ ctx, input: { taskId } }: TaskInput) {
  const userId = userOf(ctx, "unclaim");
  const task = visibleTask(ctx, taskId);
  if (task.state !== "OPEN") throw new ConflictError(`Task ${taskId} is already ${task.state.toLowerCase()}`);
  if (!task.assignee) throw new ConflictError(`Task ${taskId} is not claimed`);
  if (task.assignee !== userId && !isManager(ctx.actor))
    throw new ForbiddenError("Only the assignee or a Manager can unclaim this task");
  return ctx.processRuntime.unclaim(ctx.tenant.id, taskId);
}

export const completeTask = admitted(completeTaskNow);
/**
 * POST /a/tasks/{id}/complete. Order rules (docs/decisions.md): a task assigned to someone else → 409; a task with
 * candidates must be claimed by the caller first → 409; an API key completes only tasks assigned to nobody. Required
 * form fields are checked against the locked form version before anything is written.
 */
async function completeTaskNow({ ctx, input }: VariablesInput) {
  // The checks below and the engine's own reads of the task and its instance: one snapshot.
  return ctx.processRuntime.readTogether(() => completeChecked(ctx, input));
}

async function completeChecked(ctx: TaskOperationCtx, { taskId, variables }: VariablesInput["input"]) {
  const rt = ctx.processRuntime;
  const task = visibleTask(ctx, taskId);
  if (task.state !== "OPEN")
    throw new ConflictError(`Task ${taskId} is already ${task.state === "CANCELLED" ? "cancelled" : "completed"}`);
  const me = ctx.actor.userId;
  if (task.assignee && task.assignee !== me) throw new ConflictError(`Task ${taskId} is assigned to another user`);
  const hasCandidates = task.candidateUsers.length > 0 || task.candidateGroups.length > 0;
  if (!task.assignee && hasCandidates && me)
    throw new ConflictError(`Task ${taskId} is offered to candidates: claim it before completing it`);
  if (task.formVersionId) {
    const form = formForVersion(ctx.db, task.formVersionId);
    if (form) {
      const saved = variablesOfTask(ctx, task);
      requireFilled(form.schema, { ...saved, ...variables });
    }
  }
  const actor = { userId: me, channel: ctx.actor.channel };
  if (kindOfTask(ctx, task) === "CMMN") {
    await ctx.caseRuntime.completeHumanTask(ctx.tenant.id, taskId, variables, actor);
    return rt.getTask(ctx.tenant.id, taskId);
  }
  return rt.completeTask(ctx.tenant.id, taskId, variables, actor);
}

/** POST /a/tasks/{id}/delegate: the assignee or a Manager hands the task to another member, who is notified. */
export async function delegateTask({
  ctx,
  input: { taskId, toUserId },
}: {
  ctx: TaskOperationCtx;
  input: { taskId: string; toUserId: string };
}) {
  const userId = userOf(ctx, "delegate");
  const task = visibleTask(ctx, taskId);
  if (task.state !== "OPEN") throw new ConflictError(`Task ${taskId} is already ${task.state.toLowerCase()}`);
  if (task.assignee !== userId && !isManager(ctx.actor))
    throw new ForbiddenError("Only the assignee or a Manager can delegate this task");
  if (!isActiveMember(ctx.platformDb, ctx.tenant.id, toUserId)) {
    throw new BadRequestError(`User ${toUserId} is not an active member of this tenant`, [
      { field: "userId", message: "not a member" },
    ]);
  }
  const updated = await ctx.processRuntime.delegate(ctx.tenant.id, taskId, toUserId, userId);
  notify(
    ctx.platformDb,
    {
      tenantId: ctx.tenant.id,
      userId: toUserId,
      type: "TASK_DELEGATED",
      title: `Task delegated to you: ${task.name}`,
      body: `Task "${task.name}"${task.businessKey ? ` of ${task.businessKey}` : ""} was delegated to you.`,
      link: `/tasks/${taskId}`,
    },
    ctx.clock.now(),
  );
  return updated;
}

/** POST /a/tasks/{id}/variables: writes variables without completing. */
export async function writeTaskVariables({ ctx, input: { taskId, variables } }: VariablesInput) {
  const task = visibleTask(ctx, taskId);
  if (task.state !== "OPEN") throw new ConflictError(`Task ${taskId} is already ${task.state.toLowerCase()}`);
  if (kindOfTask(ctx, task) === "CMMN") {
    await ctx.caseRuntime.setVariables(ctx.tenant.id, task.instanceId, variables);
    return variablesOfTask(ctx, task);
  }
  return ctx.processRuntime.setTaskVariables(ctx.tenant.id, taskId, variables);
}
