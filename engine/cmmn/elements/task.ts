import type { Behaviour } from "./behaviour";
import { agentKeyOf, startAgent, startRobot } from "./worker-task";

/**
 * A plain task: a robot's or an agent's waits for its worker; otherwise blocking ones wait for a trigger and
 * non-blocking ones complete at once.
 */
export const task: Behaviour = {
  async start(run, pi, pm) {
    if (pm.robot) return startRobot(run, pi, pm.robot);
    const agent = agentKeyOf(run, pm);
    if (agent) return startAgent(run, pi, agent);
    if (!pm.isBlocking) await run.complete(pi);
  },
  end(run, pi) {
    if (pi.data.robot || pi.data.agent) run.s.cancelJobs(pi);
  },
};
