import type { Page } from "../../runtime/bpmn";
import type { TenantCtx } from "../context";
import { toolCallsOf } from "../agents/tool-log";
import { kindOfInstance } from "../instances/kind-of";
import { byType, type TypeQuery } from "../instances/merged-page";
import type { InstanceSummary } from "../instances/read";
import { visibilityOf } from "../instances/visibility";
import { withPeople } from "../people/people";

export type HistoryCtx = TenantCtx<"processRuntime" | "caseRuntime" | "platformDb">;
type IdInput = { ctx: HistoryCtx; input: { id: string } };

/** GET /a/history/instances?type= : ended processes, cases, or both, most recently ended first. */
export function listHistory({ ctx, input }: { ctx: HistoryCtx; input: TypeQuery }): Page<InstanceSummary> {
  const [t, v] = [ctx.tenant.id, visibilityOf(ctx)];
  return byType<InstanceSummary>(
    input,
    (page, size) => ctx.processRuntime.historyInstances(t, v, { page, size }),
    (page, size) => ctx.caseRuntime.historyCases(t, v, { page, size }),
    (r) => r.endTime ?? r.startTime,
  );
}

/**
 * GET /a/history/instances/{id}: the instance with its variables and tasks (running or ended), each task with
 * `assigneeUser` and `completedByUser` (name and e-mail) as the task routes answer them.
 */
export function historyDetail({ ctx, input }: IdInput) {
  const v = visibilityOf(ctx);
  const found =
    kindOfInstance(ctx, input.id) === "CMMN"
      ? ctx.caseRuntime.historyCase(ctx.tenant.id, input.id, v)
      : ctx.processRuntime.historyInstance(ctx.tenant.id, input.id, v);
  const tasks = found.tasks as unknown as Record<string, unknown>[];
  return { ...found, tasks: withPeople(ctx.platformDb, ctx.tenant.id, tasks, ["assignee", "completedBy"]) };
}

/**
 * GET /a/history/instances/{id}/activities: the activity log (plan items for a case), each with `whoUser`, the person
 * `who` names (display name and e-mail), so clients show a name.
 */
export function historyActivities({ ctx, input }: IdInput) {
  const v = visibilityOf(ctx);
  return kindOfInstance(ctx, input.id) === "CMMN"
    ? withPeople(ctx.platformDb, ctx.tenant.id, ctx.caseRuntime.caseActivities(ctx.tenant.id, input.id, v), ["who"])
    : withPeople(ctx.platformDb, ctx.tenant.id, ctx.processRuntime.historyActivities(ctx.tenant.id, input.id, v), [
        "who",
      ]);
}

/**
 * GET /a/history/instances/{id}/agent-calls: the AI agents' tool calls at the instance's steps (tool, arguments
 * digest, outcome, duration), for whoever may see the instance.
 */
export function historyAgentCalls({ ctx, input }: { ctx: HistoryCtx & TenantCtx<"db">; input: { id: string } }) {
  historyActivities({ ctx, input });
  return toolCallsOf(ctx, input.id);
}
