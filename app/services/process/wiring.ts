import { createProcessRuntime, type ProcessRuntime } from "../process-runtime";
import { formVersionFor } from "../forms/task-forms";
import { notify } from "../notifications/notify";
import { evaluateLatest } from "../decisions/operations";
import type { Platform } from "../platform";

/**
 * Builds the process runtime over the engine database and connects it to the rest of the service: business-rule
 * tasks evaluate the tenant's decisions, new tasks lock the form version of their process, and an assigned user is
 * notified.
 */
export function wireProcessRuntime(p: Platform): ProcessRuntime {
  return createProcessRuntime({
    db: p.engineSqlite,
    clock: () => p.clock.now(),
    decisions: (tenantId, key, variables) => evaluateLatest(p, tenantId, key, variables),
    hooks: {
      formVersionFor: (tenantId, definitionKey, formKey) => formVersionFor(p.tenantDbs.get(tenantId), definitionKey, formKey),
      onTaskCreated: (task) => {
        if (!task.assignee) return;
        notify(
          p.platformDb,
          {
            tenantId: task.tenantId, userId: task.assignee, type: "TASK_ASSIGNED", title: `New task: ${task.name}`,
            body: `Task "${task.name}"${task.businessKey ? ` of ${task.businessKey}` : ""} is assigned to you.`, link: `/tasks/${task.id}`,
          },
          p.clock.now(),
        );
      },
    },
    logger: {
      info: () => {},
      warn: (msg) => p.log(`[engine] ${msg}`),
      error: (msg, data) => p.log(`[engine] ${msg} ${data ? JSON.stringify(data) : ""}`),
    },
  });
}
