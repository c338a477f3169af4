import { and, eq, inArray, or, sql } from "drizzle-orm";
import { agentAttachments, agents } from "../../../db/platform/schema";
import type { Confidentiality } from "../cms/clearance";
import type { TenantCtx } from "../context";
import { ForbiddenError, NotFoundError } from "../errors";
import { prepared } from "../prepared";
import type { KbCtx } from "../knowledge-bases/access";

/** Agents read knowledge bases (links, suggestions), so their ctx is the knowledge one. */
export type AgentsCtx = KbCtx;
export type AgentRow = typeof agents.$inferSelect;
export const GLOBAL_SCOPE = "GLOBAL";

export const AGENT_TOOLS = [
  "cms_query",
  "kb_retrieve",
  "read_variables",
  "read_attachments",
  "evaluate_decision",
  "set_output",
] as const;
export type AgentToolName = (typeof AGENT_TOOLS)[number];
export const OUTPUT_TYPES = ["string", "number", "boolean", "json", "date"] as const;
export interface OutputVariable {
  name: string;
  type: (typeof OUTPUT_TYPES)[number];
  description?: string;
}

/** The limits of an agent's loops over ad-hoc subprocesses (docs/agents.md); reaching one fails the loop. */
export interface LoopLimits {
  maxModelCalls: number;
  maxToolCalls: number;
  maxTokens: number;
  /** from the loop's start to its last turn, waits for people included */
  maxWallMs: number;
}
export const DEFAULT_LOOP_LIMITS: LoopLimits = {
  maxModelCalls: 20,
  maxToolCalls: 30,
  maxTokens: 200_000,
  maxWallMs: 7 * 24 * 3600_000,
};
/** The loop limits given (others default). */
export const loopLimitsOf = (given: Partial<LoopLimits> | undefined | null): LoopLimits => ({
  maxModelCalls: given?.maxModelCalls ?? DEFAULT_LOOP_LIMITS.maxModelCalls,
  maxToolCalls: given?.maxToolCalls ?? DEFAULT_LOOP_LIMITS.maxToolCalls,
  maxTokens: given?.maxTokens ?? DEFAULT_LOOP_LIMITS.maxTokens,
  maxWallMs: given?.maxWallMs ?? DEFAULT_LOOP_LIMITS.maxWallMs,
});
/** An MCP server an agent may use, by its registered name: all its tools (null) or those named. */
export interface McpServerUse {
  server: string;
  tools: string[] | null;
}

/** An agent as the API shows it and as the runner reads it. */
export interface Agent {
  id: string;
  key: string;
  name: string;
  processKey: string | null;
  isGlobal: boolean;
  modelId: string;
  instructions: string;
  tools: AgentToolName[];
  knowledgeBaseIds: string[];
  mcpServers: McpServerUse[];
  cmsClearance: Confidentiality;
  outputVariables: OutputVariable[];
  limits: { maxToolSteps: number; timeoutMs: number } & LoopLimits;
  createdAt: string;
  updatedAt: string;
}

export const agentOf = (r: AgentRow): Agent => ({
  id: r.id,
  key: r.key,
  name: r.name,
  processKey: r.processKey,
  isGlobal: r.scope === GLOBAL_SCOPE,
  modelId: r.modelId,
  instructions: r.instructions,
  tools: JSON.parse(r.tools),
  knowledgeBaseIds: JSON.parse(r.knowledgeBaseIds),
  mcpServers: JSON.parse(r.mcpServers),
  cmsClearance: r.cmsClearance as Confidentiality,
  outputVariables: JSON.parse(r.outputVariables),
  limits: {
    maxToolSteps: r.maxToolSteps,
    timeoutMs: r.timeoutMs,
    ...loopLimitsOf(r.loopLimits ? (JSON.parse(r.loopLimits) as Partial<LoopLimits>) : null),
  },
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

type Db = TenantCtx<"platformDb">["platformDb"];

/** The agent `key` as tenant `tenantId` sees it: its own first, then a global one; another tenant's is not found. */
export function findAgentRow(platformDb: Db, tenantId: string, key: string): AgentRow | null {
  const rows = platformDb
    .select()
    .from(agents)
    .where(and(eq(agents.key, key), or(eq(agents.scope, tenantId), eq(agents.scope, GLOBAL_SCOPE))))
    .all();
  return rows.find((r) => r.scope === tenantId) ?? rows[0] ?? null;
}

export function requireAgent(ctx: TenantCtx<"platformDb">, key: string): AgentRow {
  const row = findAgentRow(ctx.platformDb, ctx.tenant.id, key);
  if (!row) throw new NotFoundError(`Agent ${key} not found`);
  return row;
}

/** Writing a global agent (create, update, delete) is SUPER_ADMIN's alone. */
export function assertWritable(ctx: TenantCtx<"platformDb">, row: { scope: string }): void {
  if (row.scope === GLOBAL_SCOPE && !ctx.actor.isSuperAdmin)
    throw new ForbiddenError("Only a SUPER_ADMIN writes global agents");
}

export function agentsOfTenant(platformDb: Db, tenantId: string): AgentRow[] {
  return platformDb
    .select()
    .from(agents)
    .where(inArray(agents.scope, [tenantId, GLOBAL_SCOPE]))
    .orderBy(agents.key)
    .all();
}

/**
 * The agent attached to (process key, activity) of a tenant, by key, for the engine's attachedAgent port. Asked for
 * every service task run (robot steps included), so the query is prepared once per database.
 */
export function attachedAgentKey(platformDb: Db, tenantId: string, processKey: string, activityId: string) {
  const row = prepared(platformDb, "attachedAgentKey", () =>
    platformDb
      .select({ key: agents.key })
      .from(agentAttachments)
      .innerJoin(agents, eq(agents.id, agentAttachments.agentId))
      .where(
        and(
          eq(agentAttachments.tenantId, sql.placeholder("tenantId")),
          eq(agentAttachments.processKey, sql.placeholder("processKey")),
          eq(agentAttachments.activityId, sql.placeholder("activityId")),
        ),
      )
      .prepare(),
  ).get({ tenantId, processKey, activityId });
  return row?.key;
}
