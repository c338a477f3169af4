import { createCaseContext, type CaseRuntimeOptions } from "./context";
import { createCaseDefinitions } from "./definitions";
import { createCaseInstances } from "./instances";
import { createPlanItems } from "./plan-items";
import { createCaseMonitor } from "./monitor";
import { createCaseTimers } from "./timers";
import { createCaseWorkerJobs } from "./worker-jobs";

export type { CaseRuntimeOptions, CaseRuntimeHooks } from "./context";
export type { CaseDeployResult } from "./definitions";
export type { StartCaseInput } from "./instances";
export type { CaseActor } from "./plan-items";
export type { CaseView, PlanItemView, PlanItemAction } from "./views";
export { CmmnDeployError } from "../../../engine/model/cmmn";

/**
 * The case runtime façade: CMMN deploy into the shared definitions table, case instances, plan items and their manual
 * transitions, human tasks in the shared task table, timers, process/decision task callbacks. Every call takes the tenant
 * id; ids of another tenant (or a case the viewer takes no part in) answer NotFound.
 */
export function createCaseRuntime(opts: CaseRuntimeOptions) {
  const ctx = createCaseContext(opts);
  const definitions = createCaseDefinitions(ctx);
  const instances = createCaseInstances(ctx);
  const items = createPlanItems(ctx, instances);
  const workers = createCaseWorkerJobs(ctx);
  const timers = createCaseTimers(ctx, workers);
  const monitor = createCaseMonitor(ctx);
  const isCase = ctx.db.query<{ one: number }, [string, string]>(
    "SELECT 1 AS one FROM case_instances WHERE id = ? AND tenant_id = ?",
  );
  const rt = {
    deploy: definitions.deploy,
    validate: definitions.validate,
    startCase: instances.startCase,
    listCases: instances.list,
    getCase: instances.get,
    historyCases: instances.historyList,
    historyCase: instances.historyGet,
    caseActivities: instances.activities,
    cancelCase: instances.cancel,
    setVariables: instances.setVariables,
    planItems: items.planItems,
    milestones: items.milestones,
    startPlanItem: items.startPlanItem,
    disablePlanItem: items.disablePlanItem,
    enablePlanItem: items.enablePlanItem,
    triggerPlanItem: items.triggerPlanItem,
    completeStage: items.completeStage,
    reactivatePlanItem: items.reactivatePlanItem,
    completeExternal: workers.completeExternal,
    externalBpmnError: workers.externalBpmnError,
    completeHumanTask: items.completeHumanTask,
    onProcessEnded: items.onProcessEnded,
    activeCounts: monitor.activeCounts,
    monitor: monitor.monitor,
    monitorItems: monitor.monitorItems,
    runDueTimers: timers.runDueTimers,
    startTimerLoop: timers.startTimerLoop,
    stop: timers.stop,
    timersOf: timers.timersOf,
    /** True when the id is a case of the tenant (the instance routes use it to dispatch BPMN vs CMMN). */
    isCase: (tenantId: string, id: string) => !!isCase.get(id, tenantId),
    /** The runtime of processes or of cases on the same kernel (where the caller chooses between them). */
    runtimeFor: ctx.kernel.runtimeFor,
    kindOfDefinitionKey: ctx.kernel.definitions.kindOfKey,
  };
  ctx.kernel.runtimes.CMMN = rt;
  return rt;
}

export type CaseRuntime = ReturnType<typeof createCaseRuntime>;
