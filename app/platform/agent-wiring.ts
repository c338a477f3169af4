import type { DelegateRegistry } from "../../engine/bpmn";
import type { CaseAgentStep } from "../../engine/cmmn";
import { AgentStepFailed, runAgentStep } from "../services/agents/run-step";
import { attachedAgentKey } from "../services/agents/store";
import type { Actor } from "../services/context";
import type { Platform } from "./platform";

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
export const attachedAgentOf = (p: Platform) => (tenantId: string, definitionKey: string, activityId: string) =>
  attachedAgentKey(p.platformDb, tenantId, definitionKey, activityId);

/**
 * Registers the `agent` delegate: a service task naming an agent (or attached to one) runs it through the agents
 * service with a ctx of the instance's tenant, the agent as actor.
 */
export function withAgentDelegate(p: Platform, registry: DelegateRegistry): DelegateRegistry {
  registry.register({
    name: "agent",
    description: "Runs an AI agent (named by pms:agent, or attached to the step) and sets its output variables",
    parameters: [{ name: "agent", type: "string", required: true, description: "key of the agent" }],
    async execute(d) {
      const tenant = p.tenants.get(d.tenantId);
      if (!tenant) throw new Error(`tenant ${d.tenantId} not found`);
      await runAgentStep({
        ctx: p.tenantCtx(tenant, AGENT_ACTOR, `agent-${d.instanceId}-${d.activityId}`),
        input: {
          engine: "BPMN",
          agentKey: String(d.params.agent ?? ""),
          processKey: d.definitionKey,
          instanceId: d.instanceId,
          businessKey: d.businessKey,
          activity: d.activityId,
          startedBy: d.startedBy,
          variables: d.variables,
          setVariable: d.setVariable,
        },
      });
    },
  });
  return registry;
}

/**
 * The case engine's agent runner: the step's agent runs through the agents service (same ctx and actor as in
 * processes); its failure, already recorded (engine CMMN, processKey = the case key), is answered so the step faults.
 */
export const caseAgentRunner =
  (p: Platform) =>
  async (step: CaseAgentStep): Promise<{ outputs: Record<string, unknown> } | { failure: string }> => {
    const tenant = p.tenants.get(step.tenantId);
    if (!tenant) throw new Error(`tenant ${step.tenantId} not found`);
    const outputs: Record<string, unknown> = {};
    try {
      await runAgentStep({
        ctx: p.tenantCtx(tenant, AGENT_ACTOR, `agent-${step.caseInstanceId}-${step.elementId}`),
        input: {
          engine: "CMMN",
          agentKey: step.agentKey,
          processKey: step.caseKey,
          instanceId: step.caseInstanceId,
          businessKey: step.businessKey,
          activity: step.elementId,
          startedBy: step.startedBy,
          variables: () => ({ ...step.variables, ...outputs }),
          setVariable: (name, value) => {
            outputs[name] = value;
          },
        },
      });
      return { outputs };
    } catch (e) {
      if (e instanceof AgentStepFailed) return { failure: e.message };
      throw e;
    }
  };
