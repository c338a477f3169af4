import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * AI agents: shared platform data tagged with their tenant (spec, Tenant isolation rule 1). `scope` is the tenant id,
 * or "GLOBAL" for an agent every tenant may use (written by SUPER_ADMIN only). JSON columns hold arrays.
 */
export const agents = sqliteTable(
  "agents",
  {
    id: text("id").primaryKey(),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    name: text("name").notNull(),
    /** The process (or case) the agent belongs to; null = usable by any process of its scope. */
    processKey: text("process_key"),
    modelId: text("model_id").notNull(),
    instructions: text("instructions").notNull(),
    /** JSON array of tool names (agent-tools catalogue). */
    tools: text("tools").notNull(),
    /** JSON array of {server, tools|null}: the MCP servers (by name) whose tools the agent may call, all or those listed. */
    mcpServers: text("mcp_servers").notNull().default("[]"),
    /** JSON array of knowledge base ids. */
    knowledgeBaseIds: text("knowledge_base_ids").notNull(),
    cmsClearance: text("cms_clearance").notNull(),
    /** JSON array of {name, type}. */
    outputVariables: text("output_variables").notNull(),
    maxToolSteps: integer("max_tool_steps").notNull(),
    timeoutMs: integer("timeout_ms").notNull(),
    /** JSON {maxModelCalls, maxToolCalls, maxTokens, maxWallMs}: the limits of its loops over ad-hoc subprocesses */
    loopLimits: text("loop_limits"),
    createdBy: text("created_by"),
    /** Set by the migration that capped this agent's clearance to its creator's: the level it had; reported once at start. */
    clearanceCappedFrom: text("clearance_capped_from"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [uniqueIndex("agents_scope_key_idx").on(t.scope, t.key)],
);

/** (process key, activity id) of a tenant → the agent that runs there: what svc_agent_attach_to_step writes. */
export const agentAttachments = sqliteTable(
  "agent_attachments",
  {
    tenantId: text("tenant_id").notNull(),
    processKey: text("process_key").notNull(),
    activityId: text("activity_id").notNull(),
    agentId: text("agent_id").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.processKey, t.activityId] }),
    index("agent_attachments_agent_idx").on(t.agentId),
  ],
);
