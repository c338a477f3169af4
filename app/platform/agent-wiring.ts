import type { AgentLoopPort, AgentTurnRequest, DelegateRegistry } from "../../engine/bpmn";
import { loopDeadline, runLoopTurn } from "../services/agents/loop/turn";
import type { CaseAgentStep } from "../../engine/cmmn";
import { AgentStepFailed, type AgentStepInput, runAgentStep } from "../services/agents/run-step";
import { attachedAgentKey } from "../services/agents/store";
import type { Actor, TenantCtx } from "../services/context";
import type { PlatformCore } from "./platform";

/** An AI agent acting in a step: no roles of its own; its tools are operations called on channel AGENT. */
export const AGENT_ACTOR: Actor = {
  kind: "agent",
  userId: null,
  email: null,
  isSuperAdmin: false,
  tenantRoles: [],
  apiKeyId: null,
  channel: "AGENT",
};

/** The engine's port to agent attachments (platform database). */
export const attachedAgentOf = (p: PlatformCore) => (tenantId: string, definitionKey: string, activityId: string) =>
  attachedAgentKey(p.platformDb, tenantId, definitionKey, activityId);

/** Runs a step's agent through the agents service with a ctx of the step's tenant, the agent as actor. */
async function runStepAgent(
  p: PlatformCore,
  tenantId: string,
  input: AgentStepInput,
): Promise<Record<string, unknown>> {
  const tenant = p.tenants.get(tenantId);
  if (!tenant) throw new Error(`tenant ${tenantId} not found`);
  // The step awaits the model: its ctx holds a lease on the tenant's file for the whole run (withTenantCtx).
  return p.withTenantCtx(tenant, AGENT_ACTOR, `agent-${input.instanceId}-${input.activity}`, (ctx) =>
    runAgentStep({ ctx, input }),
  );
}

/**
 * Registers the `agent` delegate: a service task naming an agent (or attached to one) runs it and sets its outputs
 * as variables. The agent runs once per command run: a command computed again after a revision conflict (the
 * instance moved while the model answered) sets the same outputs again without asking the model (engine/once.ts).
 */
export function withAgentDelegate(p: PlatformCore, registry: DelegateRegistry): DelegateRegistry {
  registry.register({
    name: "agent",
    description: "Runs an AI agent (named by pms:agent, or attached to the step) and sets its output variables",
    parameters: [{ name: "agent", type: "string", required: true, description: "key of the agent" }],
    async execute(d) {
      const outputs = await d.once("agent", () =>
        runStepAgent(p, d.tenantId, {
          engine: "BPMN",
          agentKey: String(d.params.agent ?? ""),
          processKey: d.definitionKey,
          instanceId: d.instanceId,
          businessKey: d.businessKey,
          activity: d.activityId,
          startedBy: d.startedBy,
          variables: d.variables,
        }),
      );
      for (const [name, value] of Object.entries(outputs)) d.setVariable(name, value);
    },
  });
  return registry;
}

/**
 * The case engine's agent runner: the step's agent runs through the agents service (same ctx and actor as in
 * processes); its failure, already recorded (engine CMMN, processKey = the case key), is answered so the step faults.
 * The engine calls it once per command run (engine/once.ts).
 */
export const caseAgentRunner =
  (p: PlatformCore) =>
  async (step: CaseAgentStep): Promise<{ outputs: Record<string, unknown> } | { failure: string }> => {
    try {
      const outputs = await runStepAgent(p, step.tenantId, {
        engine: "CMMN",
        agentKey: step.agentKey,
        processKey: step.caseKey,
        instanceId: step.caseInstanceId,
        businessKey: step.businessKey,
        activity: step.elementId,
        startedBy: step.startedBy,
        variables: () => step.variables,
      });
      return { outputs };
    } catch (e) {
      if (e instanceof AgentStepFailed) return { failure: e.message };
      throw e;
    }
  };

/**
 * The engine's port to agent loops over ad-hoc subprocesses: each turn runs through the agents service with a ctx of
 * the instance's tenant, the agent as actor (its tools on channel AGENT), outside any transaction.
 */
export const agentLoopOf = (p: PlatformCore): AgentLoopPort => {
  const withCtx = <T>(req: AgentTurnRequest, work: (ctx: TenantCtx) => Promise<T>): Promise<T> => {
    const tenant = p.tenants.get(req.tenantId);
    if (!tenant) throw new Error(`tenant ${req.tenantId} not found`);
    return p.withTenantCtx(tenant, AGENT_ACTOR, `agent-loop-${req.instanceId}-${req.subProcessId}`, work);
  };
  return {
    turn: (req) => withCtx(req, (ctx) => runLoopTurn({ ctx, input: req })),
    deadline: (req) => withCtx(req, (ctx) => loopDeadline({ ctx, input: req })),
  };
};
