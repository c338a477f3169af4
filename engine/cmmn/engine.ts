import { BadRequestError, ConflictError, NotFoundError } from "../errors";
import { nextRepeat } from "../jobs/timers";
import { CaseRun, startCaseIn } from "./run";
import type { CaseSession } from "./session";
import type { StartCaseInput } from "./start";
import type { Actor, CaseDefinition, LoadedCase, PlanItemInstance, TimerRecord } from "./state";
import { runAgentNow } from "./elements/worker-task";

export type ManualOp = "start" | "disable" | "enable" | "trigger" | "completeStage" | "reactivate";

const stateName = (pi: PlanItemInstance) => pi.state.toLowerCase().replace(/_/g, " ");

/** The case engine's commands. Each works on a session (nothing is written here) and leaves every touched case at rest. */
export const caseEngine = {
  async start(s: CaseSession, def: CaseDefinition, input: StartCaseInput): Promise<LoadedCase> {
    const lc = await startCaseIn(s, def, input);
    await reportEndedChildren(s);
    return lc;
  },

  async completeHumanTask(
    s: CaseSession,
    caseId: string,
    taskId: string,
    variables: Record<string, unknown>,
    actor: Actor,
  ): Promise<void> {
    const { lc, run } = open(s, caseId);
    const pi = lc.items.find((i) => i.data.taskId === taskId);
    if (!pi) throw new NotFoundError(`Task ${taskId} not found in case ${caseId}`);
    if (pi.state !== "ACTIVE") throw new ConflictError(`The step of task ${taskId} is ${stateName(pi)}, not active`);
    Object.assign(lc.instance.variables, variables);
    s.endTask(taskId, "COMPLETED", actor.userId, actor.channel);
    if (actor.userId) s.involve(caseId, "user", actor.userId);
    await run.complete(pi, actor);
    await settle(s, run);
  },

  /**
   * start | disable | enable | trigger | completeStage | reactivate on one plan item instance; refuses a transition its
   * state does not allow. A robot's or an agent's task is never triggered by hand (its worker completes it); only a
   * failed agent step is reactivated, and its agent then runs again as a job.
   */
  async manual(s: CaseSession, caseId: string, planItemId: string, op: ManualOp, actor: Actor): Promise<void> {
    const { lc, run } = open(s, caseId);
    const pi = lc.items.find((i) => i.id === planItemId && i.type !== "planModel");
    if (!pi) throw new NotFoundError(`Plan item ${planItemId} not found in case ${caseId}`);
    const refuse = (what: string) => {
      throw new ConflictError(`Cannot ${what} plan item '${pi.name}': it is ${stateName(pi)}`, { state: pi.state });
    };
    if (op === "start") {
      if (pi.state !== "ENABLED") refuse("start");
      await run.start(pi, "manualStart");
    } else if (op === "disable") {
      if (pi.state !== "ENABLED") refuse("disable");
      run.transition(pi, "DISABLED", "disable", actor);
    } else if (op === "enable") {
      if (pi.state !== "DISABLED") refuse("enable");
      run.transition(pi, "ENABLED", "reenable", actor);
    } else if (op === "trigger") {
      const listener = pi.type === "userEventListener" && pi.state === "AVAILABLE";
      const blockingTask = pi.type === "task" && pi.state === "ACTIVE";
      if (blockingTask && (pi.data.robot || pi.data.agent))
        throw new ConflictError(
          `Cannot trigger plan item '${pi.name}': its ${pi.data.robot ? "robot" : "AI agent"} completes it`,
          { state: pi.state },
        );
      if (!listener && !blockingTask) refuse("trigger");
      await run.complete(pi, actor);
    } else if (op === "reactivate") {
      if (pi.state !== "FAILED" || !pi.data.agent)
        throw new ConflictError(
          `Cannot reactivate plan item '${pi.name}': only a failed AI agent step runs again, and it is ${stateName(pi)}`,
          { state: pi.state },
        );
      run.transition(pi, "ACTIVE", "reactivate", actor);
      s.addJob(lc, pi, "case-agent", { agent: pi.data.agent });
    } else await run.completeStage(pi, actor);
    if (actor.userId) s.involve(caseId, "user", actor.userId);
    await settle(s, run);
  },

  /** A due timer: its listener occurs (once); a repeating one comes back as a new listener instance with the next due date. */
  async fireTimer(s: CaseSession, timer: TimerRecord): Promise<void> {
    const lc = s.get(timer.caseInstanceId);
    if (lc.instance.state !== "ACTIVE") return;
    const run = new CaseRun(s, lc);
    const pi = lc.items.find((i) => i.id === timer.planItemInstanceId);
    if (pi?.state !== "AVAILABLE") return;
    await run.complete(pi);
    const next = timer.repeat ? nextRepeat(timer.repeat, timer.dueAt) : null;
    if (next && run.containerLiving(pi)) {
      const again = run.create(run.pm(pi), pi.stageInstanceId, pi.data.counter + 1, "AVAILABLE");
      s.scheduleTimer({
        caseInstanceId: lc.instance.id,
        planItemInstanceId: again.id,
        elementId: again.elementId,
        dueAt: next.dueAt,
        repeat: next.repeat ?? null,
      });
    }
    await settle(s, run);
  },

  /**
   * The job of an agent step: the agent runs (outside any write, once per command run) and the step completes or
   * faults.
   */
  async runAgentJob(s: CaseSession, caseId: string, planItemId: string): Promise<void> {
    const lc = s.get(caseId);
    if (lc.instance.state !== "ACTIVE") return;
    const pi = lc.items.find((i) => i.id === planItemId);
    if (pi?.state !== "ACTIVE" || !pi.data.agent) return;
    const run = new CaseRun(s, lc);
    await runAgentNow(run, pi);
    await settle(s, run);
  },

  /** A runner finished a robot's task: its variables go into the case, its job is removed, the task completes. */
  async completeExternal(
    s: CaseSession,
    caseId: string,
    jobId: string,
    variables: Record<string, unknown>,
  ): Promise<void> {
    const { lc, run } = open(s, caseId);
    const pi = lc.items.find((i) => i.data.jobId === jobId && i.state === "ACTIVE");
    if (!pi) throw new NotFoundError(`External task ${jobId} not found`);
    Object.assign(lc.instance.variables, variables);
    s.cancelJobs(pi);
    await run.complete(pi);
    await settle(s, run);
  },

  /** The BPMN instance of a blocking process task ended: the task completes. */
  async processEnded(s: CaseSession, caseId: string, processInstanceId: string): Promise<boolean> {
    const { lc, run } = open(s, caseId);
    const pi = lc.items.find((i) => i.data.processInstanceId === processInstanceId && i.state === "ACTIVE");
    if (!pi) return false;
    await run.complete(pi);
    await settle(s, run);
    return true;
  },

  async cancel(s: CaseSession, caseId: string, actor: Actor): Promise<void> {
    const { run } = open(s, caseId);
    run.endCase("TERMINATED", "terminate", actor);
    await reportEndedChildren(s);
  },

  /** Sets case variables and re-evaluates sentries whose if-parts may now hold. */
  async setVariables(s: CaseSession, caseId: string, variables: Record<string, unknown>): Promise<void> {
    const { lc, run } = open(s, caseId);
    Object.assign(lc.instance.variables, variables);
    s.touch(lc, run.root);
    await settle(s, run);
  },
};

function open(s: CaseSession, caseId: string) {
  const lc = s.get(caseId);
  if (lc.instance.state !== "ACTIVE") throw new ConflictError(`Case ${caseId} has already ended`);
  if (typeof lc.instance.variables !== "object" || lc.instance.variables === null)
    throw new BadRequestError(`Case ${caseId} has unreadable variables`);
  return { lc, run: new CaseRun(s, lc) };
}

async function settle(s: CaseSession, run: CaseRun): Promise<void> {
  await run.settle();
  await reportEndedChildren(s);
}

/** Completes the blocking case tasks whose child cases ended in this command (which may end their own cases in turn). */
async function reportEndedChildren(s: CaseSession): Promise<void> {
  while (s.endedChildren.length) {
    const childId = s.endedChildren.shift()!;
    const child = s.get(childId).instance;
    if (!child.parentCaseId || !child.parentPlanItemId) continue;
    const parent = s.get(child.parentCaseId);
    if (parent.instance.state !== "ACTIVE") continue;
    const pi = parent.items.find((i) => i.id === child.parentPlanItemId);
    if (pi?.state !== "ACTIVE") continue;
    const run = new CaseRun(s, parent);
    await run.complete(pi);
    await run.settle();
  }
}
