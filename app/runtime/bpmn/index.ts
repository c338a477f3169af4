import { readSnapshot } from "../../../db/read-snapshot";
import { createDelegateRegistry, type DelegateRegistry } from "../../../engine/bpmn";
import { createHistoryCleanup } from "../kernel/history-cleanup";
import { BpmnDeployError, NotFoundError } from "../../../engine/errors";
import {
  isMalformed,
  type parseBpmn,
  type StructuralFinding,
  structuralFindings,
  validateProcess,
} from "../../../engine/model/bpmn";

/** What validating a BPMN without deploying finds. */
export interface ValidationResult {
  processes: string[];
  findings: StructuralFinding[];
  warnings: string[];
}
import { createRuntimeContext, type RuntimeOptions } from "./context";
import { parseBpmnOffThread } from "../kernel/model-parse";
import { createAdhoc } from "./adhoc";
import { createActivityTree } from "./activity-tree";
import { createDefinitions } from "./definitions";
import { renderDiagramSvg } from "./diagram-svg";
import { createInstances } from "./instances";
import { createJobs } from "./jobs";
import { createVariablesAt } from "./variables-at";
import { createExternalSteps } from "./external";
import { createMonitor } from "./monitor";
import { createTasks } from "./tasks";
import { createTaskFilter } from "../kernel/task-filter";
import { createInbox } from "../kernel/inbox";
import { createTaskComments } from "../kernel/task-comments";
import type { Visibility } from "./views";
import { pathsFrom } from "./task-paths";

export type { RuntimeOptions, RuntimeHooks } from "./context";
export type { Visibility, TaskView, InstanceView, Page } from "./views";
export type { DeployResult, DefinitionConfig, AttachmentPolicy, McpPolicy } from "./definitions";
export { MCP_POLICIES } from "./definitions";
export type { StartInput } from "./instances";
export type { ActivityTreeNode } from "./activity-tree";
export type { TaskPath } from "./task-paths";
export {
  NotFoundError,
  ConflictError,
  BadRequestError,
  UnprocessableError,
  BpmnDeployError,
  EngineError,
} from "../../../engine/errors";

/**
 * The process runtime façade the HTTP layer calls: definitions, instances, tasks, messages/signals, jobs, history,
 * monitor, dashboard and diagrams. Every call takes the tenant id; ids of another tenant answer NotFound.
 */
export function createProcessRuntime(opts: RuntimeOptions & { delegates?: DelegateRegistry }) {
  const delegates = opts.delegates ?? createDelegateRegistry();
  const ctx = createRuntimeContext(opts, delegates);
  const definitions = createDefinitions(ctx);
  const instances = createInstances(ctx);
  const tasks = createTasks(ctx);
  const jobs = createJobs(ctx);
  const external = createExternalSteps(ctx);
  const monitor = createMonitor(ctx);
  const tree = createActivityTree(ctx);

  const modelOfInstance = (tenantId: string, instanceId: string, v?: Visibility) => {
    const inst = instances.get(tenantId, instanceId, v);
    const def = ctx.store.loadDefinition(inst.definitionId);
    if (!def) throw new NotFoundError(`Definition of instance ${instanceId} not found`);
    return { inst, def };
  };

  const rt = {
    // definitions
    deploy: definitions.deploy,
    listDefinitions: definitions.list,
    getDefinition: definitions.get,
    definitionVersions: definitions.versions,
    publishDefinition: definitions.publish,
    definitionXml: definitions.xml,
    suspendDefinition: (tenantId: string, key: string) => definitions.setSuspended(tenantId, key, true),
    activateDefinition: (tenantId: string, key: string) => definitions.setSuspended(tenantId, key, false),
    toggleDefinition: definitions.toggle,
    getDefinitionConfig: definitions.getConfig,
    businessKeyTemplate: definitions.businessKeyTemplate,
    putDefinitionConfig: definitions.putConfig,
    /**
     * Parses and checks without deploying (the validate route, MCP's validate tool): the structural findings, a
     * refused model as an "error" finding, and the other deploy warnings (XML, implementations). Malformed XML throws.
     */
    async validate(xml: string): Promise<ValidationResult> {
      let parsed: Awaited<ReturnType<typeof parseBpmn>>;
      try {
        parsed = await parseBpmnOffThread(xml);
      } catch (e) {
        if (!(e instanceof BpmnDeployError) || isMalformed(e.message)) throw e;
        const refused = { severity: "error", code: "NOT_DEPLOYABLE", elementId: null, processId: null };
        return { processes: [], findings: [{ ...refused, message: e.message } as StructuralFinding], warnings: [] };
      }
      const findings = parsed.processes.flatMap(structuralFindings);
      const structural = new Set(findings.map((f) => f.message));
      const warnings = [...parsed.warnings];
      for (const p of parsed.processes)
        for (const w of validateProcess(p, { knownDelegate: (n) => !!delegates.get(n) }))
          if (!structural.has(w)) warnings.push(w);
      return { processes: parsed.processes.map((p) => p.id), findings, warnings };
    },

    // instances
    startInstance: instances.startInstance,
    listInstances: instances.list,
    searchInstancesByVariable: instances.searchByVariable,
    /** The cockpit's instance search (state, definition and version, business key, variable, start window). */
    searchInstances: instances.search,
    getInstance: instances.get,
    getVariables: instances.getVariables,
    /** The variables visible at one execution (a robot step's, its local inputs included). */
    getVariablesAt: createVariablesAt(ctx),
    setInstanceVariables: instances.setVariables,
    cancelInstance: instances.cancel,
    suspendInstance: (tenantId: string, id: string) => instances.setSuspended(tenantId, id, true),
    activateInstance: (tenantId: string, id: string) => instances.setSuspended(tenantId, id, false),
    correlateMessage: instances.correlateMessage,
    signal: instances.signal,
    triggerInstance: instances.trigger,
    /** The active executions of a visible instance, per scope (null once it has ended). */
    activityTree(tenantId: string, instanceId: string, v?: Visibility) {
      instances.get(tenantId, instanceId, v);
      return tree(tenantId, instanceId);
    },
    ...createAdhoc(ctx),
    /** SVG of the instance's definition with the activities where tokens rest highlighted. */
    diagramSvg(tenantId: string, instanceId: string, v?: Visibility): string {
      const { inst, def } = modelOfInstance(tenantId, instanceId, v);
      return renderDiagramSvg(def.model, new Set(inst.activeActivityIds));
    },
    diagramXml(tenantId: string, instanceId: string, v?: Visibility): string {
      const { inst } = modelOfInstance(tenantId, instanceId, v);
      return ctx.kernel.definitions.xmlOf(tenantId, inst.definitionId)!;
    },

    // tasks
    getTask: tasks.getTask,
    isTaskVisible: tasks.isVisible,
    listTasks: tasks.listTasks,
    completedTasks: tasks.completedTasks,
    completeTask: tasks.completeTask,
    claim: tasks.claim,
    unclaim: tasks.unclaim,
    delegate: tasks.delegate,
    setTaskVariables: tasks.setTaskVariables,
    /** Where completing a (visible) task can lead, read from its definition version's model, never evaluated. */
    taskPaths(tenantId: string, taskId: string, v?: Visibility) {
      const task = tasks.getTask(tenantId, taskId, v);
      const def = ctx.store.loadDefinition(task.definitionId);
      // A case's human task has no sequence flows: nothing to list.
      return def?.model.flows ? pathsFrom(def.model, task.activityId) : [];
    },
    getTaskVariables: tasks.getTaskVariables,
    /**
     * Runs `fn` with every engine read it makes before its first await in one snapshot, processes and cases alike (they
     * share the engine database): a service's checks and the command they lead to then read one state, and only the
     * first read after a commit pays for the WAL's read mark. `fn` must not write before its first await (a write
     * transaction begun there throws: db/connection.ts `immediate`).
     */
    readTogether: <T>(fn: () => T): T => readSnapshot(ctx.db, fn),

    // jobs
    runDueJobs: jobs.runDueJobs,
    startJobExecutor: jobs.startJobExecutor,
    stop: jobs.stop,
    jobExecutorActive: jobs.jobExecutorActive,
    jobFigures: jobs.jobFigures,
    /** Commands (of processes and cases: one runner per engine database) computed again after a revision conflict. */
    commandRecomputations: () => ctx.kernel.runCommand.recomputations(),
    failedJobs: jobs.failedJobs,
    retryJob: jobs.retryJob,
    deadletterJob: jobs.deadletterJob,
    jobsOfInstance: jobs.jobsOf,
    /** The job routes: an instance's jobs, a key's timer starts, running a job now (kernel/job-admin.ts). */
    instanceJobs: jobs.instanceJobs,
    definitionJobs: jobs.definitionJobs,
    executeJob: jobs.executeJob,
    /** Robot jobs: fetch-and-lock with long polling, lock extension, failures (app/runtime/kernel/external-jobs.ts). */
    externalJobs: { ...ctx.kernel.external, fail: external.failExternal },
    completeExternal: external.completeExternal,
    externalBpmnError: external.externalBpmnError,

    // history
    historyInstances: instances.historyList,
    historyInstance: instances.historyGet,
    historyActivities: instances.activities,
    /** Removal of ended instances past their time-to-live, and the tenant default (docs/operations.md). */
    historyCleanup: createHistoryCleanup(ctx.kernel),

    // monitoring
    monitor: monitor.monitor,
    monitorItems: monitor.monitorItems,
    dashboard: monitor.dashboard,

    /** Built-in and registered service-task delegates with their parameters (GET /a/delegates). */
    listDelegates: () => delegates.list(),
    delegates,

    // read models the services use instead of SQL of their own
    /** Open tasks a user who does not see the whole tenant may see, newest first (the inbox). */
    openTasksOfUser: createInbox(ctx.db),
    /** Filtered and sorted pages of open tasks and their counts (the tasklist's filters). */
    ...createTaskFilter(ctx.db),
    /** "BPMN" or "CMMN" for a definition key of the tenant (the type alone: this is on the start path), or null. */
    kindOfDefinitionKey: ctx.kernel.definitions.kindOfKey,
    /** "BPMN" or "CMMN" for a definition version id of the tenant, or null. */
    kindOfDefinition: ctx.kernel.definitions.kindOfDefinition,
    /** True when the tenant holds a definition (of any kind) under the key. */
    hasDefinitionKey: ctx.kernel.definitions.hasKey,
    /** Comments on tasks (`taskComments`, `addTaskComment`). */
    ...createTaskComments(ctx.db, ctx.kernel.writable),
    /** The runtime of processes or of cases on the same kernel (where the caller chooses between them). */
    runtimeFor: ctx.kernel.runtimeFor,
  };
  ctx.kernel.runtimes.BPMN = rt;
  return rt;
}

export type ProcessRuntime = ReturnType<typeof createProcessRuntime>;
