import { Session } from "../../../engine/bpmn";
import type { RuntimeContext } from "./context";
import { taskView } from "./views";

/**
 * Ad-hoc subprocesses (Flowable's runtime calls): list what a caller may start, start one activity, complete the
 * subprocess. Another tenant's instance answers NotFound (the session loads instances of `tenantId` only).
 */
export function createAdhoc(ctx: RuntimeContext) {
  return {
    /** Enabled activities of the instance's running ad-hoc subprocesses: `{subProcessId, activityId, name, type}`. */
    enabledAdhocActivities(tenantId: string, instanceId: string) {
      // A read: the session is only used to load the instance and its definition, nothing is written.
      return ctx.engine.enabledAdhocActivities(new Session(ctx.store, tenantId, ctx.clock()), instanceId);
    },

    /** Starts an enabled activity; answers the new execution and the tasks the command opened. */
    async executeAdhocActivity(
      tenantId: string,
      instanceId: string,
      activityId: string,
      variables?: Record<string, unknown>,
    ) {
      return ctx.command(tenantId, async (s) => {
        const token = await ctx.engine.executeAdhocActivity(s, instanceId, activityId, variables);
        const tasks = [...s.changes.tasks.values()]
          .filter((c) => c.row.state === "OPEN" && c.op === "insert")
          .map((c) => c.row);
        return { instanceId, activityId, executionId: token.id, activeTasks: tasks.map(taskView) };
      });
    },

    /** Completes a running ad-hoc subprocess (409 while one of its activities runs); the instance moves on. */
    async completeAdhocSubProcess(tenantId: string, instanceId: string, subProcessId: string) {
      await ctx.command(tenantId, (s) => ctx.engine.completeAdhocSubProcess(s, instanceId, subProcessId));
      return { instanceId, subProcessId, completed: true };
    },
  };
}
