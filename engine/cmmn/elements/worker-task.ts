import type { PlanItemModel } from "../../model/cmmn";
import type { CaseRun } from "../run";
import type { PlanItemInstance } from "../state";

/**
 * The agent of a task: named in the model, else attached by the platform (case key + plan item id, then its task
 * definition id) to a task that names no other implementation.
 */
export function agentKeyOf(run: CaseRun, pm: PlanItemModel): string | undefined {
  if (pm.agent) return pm.agent;
  if (pm.robot || pm.implementation) return undefined;
  const attached = run.s.deps.attachedAgent;
  return attached?.(run.s.tenantId, run.lc.instance.definitionKey, [pm.id, pm.definitionRef]);
}

/** A robot's task waits as an external job until a runner completes it (kernel/external-jobs.ts). */
export function startRobot(run: CaseRun, pi: PlanItemInstance, robot: string): void {
  pi.data.robot = robot;
  pi.data.jobId = run.s.addJob(run.lc, pi, "external", { topic: robot, case: true }).id;
  run.s.touch(run.lc, pi);
}

/** An agent's task runs now when the command runs agents inline (a case start), else as a job of the executor. */
export async function startAgent(run: CaseRun, pi: PlanItemInstance, agent: string): Promise<void> {
  pi.data.agent = agent;
  run.s.touch(run.lc, pi);
  if (run.s.inlineAgents) await runAgentNow(run, pi);
  else run.s.addJob(run.lc, pi, "case-agent", { agent });
}

/**
 * Runs the agent of an active step while the command computes (no write is open): its outputs become case variables
 * and the step completes; a failure faults the step (FAILED, CMMN's `fault`), leaving the case open until the step
 * is reactivated. The platform has recorded the failure (ai-task-failures) before answering. The agent runs once per
 * command run: a command recomputed after a revision conflict reuses its outcome (engine/once.ts).
 */
export async function runAgentNow(run: CaseRun, pi: PlanItemInstance): Promise<void> {
  const inst = run.lc.instance;
  const runAgent = run.s.deps.runAgent;
  const outcome = runAgent
    ? await run.s.once(`${inst.id}/${pi.id}/agent`, () =>
        runAgent({
          tenantId: inst.tenantId,
          caseInstanceId: inst.id,
          caseKey: inst.definitionKey,
          businessKey: inst.businessKey,
          startedBy: inst.startedBy,
          elementId: pi.elementId,
          agentKey: pi.data.agent!,
          variables: { ...inst.variables },
        }),
      )
    : { failure: "no agent runner is connected to the case engine" };
  if ("failure" in outcome) {
    pi.data.failure = outcome.failure;
    run.transition(pi, "FAILED", "fault");
    return;
  }
  delete pi.data.failure;
  Object.assign(inst.variables, outcome.outputs);
  await run.complete(pi);
}
