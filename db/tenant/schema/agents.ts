import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

/**
 * One row per failing AI step, not per attempt (spec: AI task failure record). `stepKey` names the step: engine,
 * process (case) key, business key (else instance id) and activity, so submitting the same document again counts
 * as the same step running again.
 */
export const aiTaskFailures = sqliteTable(
  "ai_task_failures",
  {
    id: text("id").primaryKey(),
    stepKey: text("step_key").notNull(),
    engine: text("engine", { enum: ["BPMN", "CMMN"] }).notNull(),
    processKey: text("process_key").notNull(),
    instanceId: text("instance_id"),
    businessKey: text("business_key"),
    activity: text("activity").notNull(),
    agentKey: text("agent_key").notNull(),
    failureType: text("failure_type").notNull(),
    reason: text("reason").notNull(),
    attemptCount: integer("attempt_count").notNull(),
    startedBy: text("started_by"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("ai_task_failures_step_idx").on(t.stepKey),
    index("ai_task_failures_bk_idx").on(t.businessKey, t.updatedAt),
    index("ai_task_failures_updated_idx").on(t.updatedAt),
  ],
);

/** Every tool call an agent made: which instance and step, which tool, a digest of its arguments, how it ended. */
export const agentToolCalls = sqliteTable(
  "agent_tool_calls",
  {
    id: text("id").primaryKey(),
    instanceId: text("instance_id"),
    activity: text("activity"),
    agentKey: text("agent_key").notNull(),
    tool: text("tool").notNull(),
    argsDigest: text("args_digest").notNull(),
    /** OK, ERROR or REFUSED */
    outcome: text("outcome").notNull(),
    detail: text("detail"),
    durationMs: integer("duration_ms").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("agent_tool_calls_instance_idx").on(t.instanceId, t.createdAt)],
);
