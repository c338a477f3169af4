import { createProcessRuntime, type ProcessRuntime } from "../runtime/bpmn";
import { createCaseRuntime, type CaseRuntime } from "../runtime/cmmn";
import { formVersionFor } from "../services/forms/task-forms";
import { notify } from "../services/notifications/notify";
import { isActiveMember } from "../services/members/active-member";
import { evaluateForEngine, evaluateLatest } from "../services/decisions/operations";
import type { PlatformCore } from "./platform";
import { createDelegateRegistry, type TaskRecord } from "../../engine/bpmn";
import { createOutboundFetch } from "../outbound";
import { createJsSandbox, scriptPool } from "../runtime/scripting/js-sandbox";
import { agentLoopOf, attachedAgentOf, caseAgentRunner, withAgentDelegate } from "./agent-wiring";

/**
 * Hooks both engines share: new tasks lock the form version of their definition, and an assigned user is notified.
 * A model may name an assignee who is no member of the tenant (a Camunda or Flowable example's "kermit"): the task is
 * created as modelled and simply nobody is notified.
 */
function taskHooks(p: PlatformCore) {
  return {
    formVersionFor: (tenantId: string, definitionKey: string, formKey: string) =>
      formVersionFor(p.tenantDbs.get(tenantId), definitionKey, formKey),
    onTaskCreated: (task: TaskRecord) => {
      if (!task.assignee || !isActiveMember(p.platformDb, task.tenantId, task.assignee)) return;
      notify(
        p.platformDb,
        {
          tenantId: task.tenantId,
          userId: task.assignee,
          type: "TASK_ASSIGNED",
          title: `New task: ${task.name}`,
          body: `Task "${task.name}"${task.businessKey ? ` of ${task.businessKey}` : ""} is assigned to you.`,
          link: `/tasks/${task.id}`,
        },
        p.clock.now(),
      );
    },
  };
}

const decisionsOf = (p: PlatformCore) => (tenantId: string, key: string, variables: Record<string, unknown>) =>
  evaluateLatest(p, tenantId, key, variables);

/**
 * The BPMN runtime over the engine database's kernel; business-rule tasks evaluate the tenant's decisions. The case
 * runtime is built after it (and from it), so it is reached when a process ends, not at construction.
 */
export function wireProcessRuntime(p: PlatformCore, caseRuntime: () => CaseRuntime): ProcessRuntime {
  return createProcessRuntime({
    kernel: p.kernel,
    decisions: decisionsOf(p),
    // The http delegate reaches the network only through the one outbound policy (internal hosts as configured).
    delegates: withAgentDelegate(
      p,
      createDelegateRegistry({
        http: { fetch: createOutboundFetch({ allowedPrivate: p.config.httpTasksAllowPrivate }) },
      }),
    ),
    attachedAgent: attachedAgentOf(p),
    agentLoop: agentLoopOf(p),
    // Model JavaScript on the process's pool of script workers, of the configured size.
    scripts: createJsSandbox(scriptPool(p.config.scriptWorkers)),
    // However a process ends (task, timer, job, cancel), a case waiting on it through a blocking process task moves on.
    hooks: {
      ...taskHooks(p),
      onInstanceEnded: (tenantId, instanceId, parentId) => caseRuntime().onProcessEnded(tenantId, instanceId, parentId),
    },
  });
}

/** The CMMN runtime over the same database: decision tasks use the DMN service, process tasks start BPMN instances. */
export function wireCaseRuntime(p: PlatformCore, processRuntime: ProcessRuntime): CaseRuntime {
  return createCaseRuntime({
    kernel: p.kernel,
    decisions: async (tenantId, key, variables) => evaluateForEngine(p, tenantId, key, variables),
    processes: async (tenantId, definitionKey, variables, parent) => {
      const started = await processRuntime.startInstance(tenantId, {
        definitionKey,
        variables,
        channel: "SYSTEM",
        parentCaseId: parent.caseInstanceId,
      });
      return { id: started.id, ended: started.ended };
    },
    attachedAgent: (tenantId, caseKey, elementIds) => {
      const attached = attachedAgentOf(p);
      for (const id of elementIds) {
        const key = attached(tenantId, caseKey, id);
        if (key) return key;
      }
      return undefined;
    },
    runAgent: caseAgentRunner(p),
    hooks: taskHooks(p),
  });
}
