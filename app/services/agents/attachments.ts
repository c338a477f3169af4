import { and, eq } from "drizzle-orm";
import { agentAttachments, agents } from "../../../db/platform/schema";
import { BadRequestError, ConflictError, NotFoundError } from "../errors";
import { assertModeler } from "./agents";
import { type AgentsCtx, requireAgent } from "./store";

export interface StepRef {
  processKey: string;
  activityId: string;
}
export interface AgentAttachment extends StepRef {
  agentKey: string;
  createdAt: string;
}

/** Both halves of a step reference are required (the definition may be deployed later). */
function checkStep(step: StepRef): void {
  if (!step.processKey.trim() || !step.activityId.trim())
    throw new BadRequestError("processKey and activityId are required", [
      { field: "processKey", message: "must not be blank" },
    ]);
}

/**
 * An agent of a process (its processKey) runs only in that process or case; a process-less (or global) agent runs
 * anywhere in the tenant. Attaching it elsewhere is a 409 (docs/decisions.md): the request is well formed, the
 * agent's own processKey is what it conflicts with.
 */
function assertRunsIn(agent: { key: string; processKey: string | null }, processKey: string): void {
  if (agent.processKey && agent.processKey !== processKey)
    throw new ConflictError(
      `Agent ${agent.key} belongs to process ${agent.processKey} and cannot be attached to a step of ${processKey}`,
    );
}

/**
 * PUT /a/agents/{key}/attachments {processKey, activityId}: the step runs this agent from now on (what the MCP tool
 * svc_agent_attach_to_step writes). A step holds one agent: attaching again moves it. Idempotent.
 */
export function attachAgent({ ctx, input }: { ctx: AgentsCtx; input: StepRef & { key: string } }): AgentAttachment {
  assertModeler(ctx);
  checkStep(input);
  const agent = requireAgent(ctx, input.key);
  assertRunsIn(agent, input.processKey);
  const createdAt = new Date(ctx.clock.now()).toISOString();
  const row = {
    tenantId: ctx.tenant.id,
    processKey: input.processKey,
    activityId: input.activityId,
    agentId: agent.id,
    createdAt,
  };
  ctx.platformDb
    .insert(agentAttachments)
    .values(row)
    .onConflictDoUpdate({
      target: [agentAttachments.tenantId, agentAttachments.processKey, agentAttachments.activityId],
      set: { agentId: agent.id, createdAt },
    })
    .run();
  return { processKey: input.processKey, activityId: input.activityId, agentKey: agent.key, createdAt };
}

/** DELETE /a/agents/{key}/attachments?processKey=&activityId=: 404 when this agent is not attached there. */
export function detachAgent({ ctx, input }: { ctx: AgentsCtx; input: StepRef & { key: string } }): void {
  assertModeler(ctx);
  const agent = requireAgent(ctx, input.key);
  const where = and(
    eq(agentAttachments.tenantId, ctx.tenant.id),
    eq(agentAttachments.processKey, input.processKey),
    eq(agentAttachments.activityId, input.activityId),
    eq(agentAttachments.agentId, agent.id),
  );
  const gone = ctx.platformDb.delete(agentAttachments).where(where).returning().all();
  if (!gone.length)
    throw new NotFoundError(`Agent ${input.key} is not attached to ${input.processKey}/${input.activityId}`);
}

/** GET /a/agents/{key}/attachments: the tenant's steps this agent runs at. */
export function listAgentAttachments({ ctx, input }: { ctx: AgentsCtx; input: { key: string } }): AgentAttachment[] {
  assertModeler(ctx);
  const agent = requireAgent(ctx, input.key);
  return ctx.platformDb
    .select({
      processKey: agentAttachments.processKey,
      activityId: agentAttachments.activityId,
      agentKey: agents.key,
      createdAt: agentAttachments.createdAt,
    })
    .from(agentAttachments)
    .innerJoin(agents, eq(agents.id, agentAttachments.agentId))
    .where(and(eq(agentAttachments.tenantId, ctx.tenant.id), eq(agentAttachments.agentId, agent.id)))
    .orderBy(agentAttachments.processKey, agentAttachments.activityId)
    .all();
}
