import type { DelegateRegistry } from "../../engine/bpmn";
import { runAgentStep } from "../services/agents/run-step";
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
