import { eq } from "drizzle-orm";
import { agentAttachments, agents } from "../../../db/platform/schema";
import type { Confidentiality } from "../cms/clearance";
import { isModeler } from "../context";
import { BadRequestError, ConflictError, ForbiddenError, type FieldError } from "../errors";
import { findBase } from "../knowledge-bases/access";
import { assertCanGrantClearance } from "./clearance-cap";
import { mcpServerErrors, mcpUsesOf } from "./mcp-uses";
import {
  type Agent,
  agentOf,
  type AgentsCtx,
  agentsOfTenant,
  type AgentToolName,
  assertWritable,
  findAgentRow,
  GLOBAL_SCOPE,
  type LoopLimits,
  loopLimitsOf,
  type OutputVariable,
  requireAgent,
} from "./store";

export interface AgentInput {
  key: string;
  name: string;
  processKey?: string | null;
  isGlobal?: boolean;
  modelId: string;
  instructions: string;
  tools?: AgentToolName[];
  knowledgeBaseIds?: string[];
  mcpServers?: { server: string; tools?: string[] | null }[];
  cmsClearance?: Confidentiality;
  outputVariables?: OutputVariable[];
  limits?: { maxToolSteps?: number; timeoutMs?: number } & Partial<LoopLimits>;
}

export const DEFAULT_LIMITS = { maxToolSteps: 8, timeoutMs: 60_000 };

/** Agents are modelling work: Modeler or Admin (SUPER_ADMIN passes); USER, MANAGER alone and API keys get 403. */
export function assertModeler(ctx: AgentsCtx): void {
  if (!isModeler(ctx.actor)) throw new ForbiddenError("AI agents require the MODELER or ADMIN role");
}

/** The model must be a chat model of the catalogue; knowledge bases visible to the tenant; MCP servers allowed for it. */
function checkReferences(ctx: AgentsCtx, input: AgentInput, scope: string): void {
  const errors: FieldError[] = [];
  const chat = ctx.ai.catalogue().filter((m) => m.kind === "chat");
  if (!chat.length) throw new ConflictError("No AI model is active on this installation");
  if (!chat.some((m) => m.id === input.modelId))
    errors.push({
      field: "modelId",
      message: `is not a chat model of the catalogue (${chat.map((m) => m.id).join(", ")})`,
    });
  for (const [i, id] of (input.knowledgeBaseIds ?? []).entries()) {
    try {
      findBase(ctx, id);
    } catch {
      errors.push({ field: `knowledgeBaseIds.${i}`, message: `knowledge base ${id} not found` });
    }
  }
  errors.push(...mcpServerErrors(ctx.platformDb, scope, input));
  const names = (input.outputVariables ?? []).map((v) => v.name);
  if (new Set(names).size !== names.length) errors.push({ field: "outputVariables", message: "names must be unique" });
  if (errors.length)
    throw new BadRequestError(`Invalid agent: ${errors.map((e) => `${e.field} ${e.message}`).join("; ")}`, errors);
}

const columns = (input: AgentInput, now: string) => ({
  name: input.name.trim(),
  processKey: input.processKey ?? null,
  modelId: input.modelId,
  instructions: input.instructions,
  tools: JSON.stringify(input.tools ?? []),
  knowledgeBaseIds: JSON.stringify(input.knowledgeBaseIds ?? []),
  mcpServers: JSON.stringify(mcpUsesOf(input)),
  cmsClearance: input.cmsClearance ?? "PUBLIC",
  outputVariables: JSON.stringify(input.outputVariables ?? []),
  maxToolSteps: input.limits?.maxToolSteps ?? DEFAULT_LIMITS.maxToolSteps,
  timeoutMs: input.limits?.timeoutMs ?? DEFAULT_LIMITS.timeoutMs,
  loopLimits: JSON.stringify(loopLimitsOf(input.limits)),
  updatedAt: now,
});

/** GET /a/agents: the tenant's agents and the global ones. */
export function listAgents({ ctx }: { ctx: AgentsCtx; input?: unknown }): Agent[] {
  assertModeler(ctx);
  return agentsOfTenant(ctx.platformDb, ctx.tenant.id).map(agentOf);
}

/** GET /a/agents/{key} */
export function getAgent({ ctx, input }: { ctx: AgentsCtx; input: { key: string } }): Agent {
  assertModeler(ctx);
  return agentOf(requireAgent(ctx, input.key));
}

/** POST /a/agents: 201; isGlobal only for SUPER_ADMIN; 409 when the key is taken in that scope or no model is active. */
export function createAgent({ ctx, input }: { ctx: AgentsCtx; input: AgentInput }): Agent {
  assertModeler(ctx);
  const scope = input.isGlobal ? GLOBAL_SCOPE : ctx.tenant.id;
  assertWritable(ctx, { scope });
  assertCanGrantClearance(ctx, input.cmsClearance ?? "PUBLIC");
  checkReferences(ctx, input, scope);
  const taken = findAgentRow(ctx.platformDb, ctx.tenant.id, input.key);
  if (taken?.scope === scope) throw new ConflictError(`Agent ${input.key} already exists`);
  const now = new Date(ctx.clock.now()).toISOString();
  const row = ctx.platformDb
    .insert(agents)
    .values({
      id: Bun.randomUUIDv7(),
      scope,
      key: input.key,
      createdBy: ctx.actor.userId,
      createdAt: now,
      ...columns(input, now),
    })
    .returning()
    .get();
  return agentOf(row);
}

/** PUT /a/agents/{key}: replaces the definition (the key and the scope stay). */
export function updateAgent({ ctx, input }: { ctx: AgentsCtx; input: AgentInput & { currentKey: string } }): Agent {
  assertModeler(ctx);
  const row = requireAgent(ctx, input.currentKey);
  assertWritable(ctx, row);
  assertCanGrantClearance(ctx, input.cmsClearance ?? "PUBLIC");
  checkReferences(ctx, input, row.scope);
  const now = new Date(ctx.clock.now()).toISOString();
  const updated = ctx.platformDb.update(agents).set(columns(input, now)).where(eq(agents.id, row.id)).returning().get();
  return agentOf(updated);
}

/** DELETE /a/agents/{key}: 409 while a step of any process is attached to it. */
export function deleteAgent({ ctx, input }: { ctx: AgentsCtx; input: { key: string } }): void {
  assertModeler(ctx);
  const row = requireAgent(ctx, input.key);
  assertWritable(ctx, row);
  const attached = ctx.platformDb.select().from(agentAttachments).where(eq(agentAttachments.agentId, row.id)).all();
  if (attached.length)
    throw new ConflictError(
      `Agent ${row.key} is attached to ${attached.map((a) => `${a.processKey}/${a.activityId}`).join(", ")}; detach it first`,
    );
  ctx.platformDb.delete(agents).where(eq(agents.id, row.id)).run();
}
