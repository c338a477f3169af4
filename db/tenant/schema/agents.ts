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
    /** an agent loop's turn the call belongs to (tool "model": the model call itself), and the tokens it used */
    turn: integer("turn"),
    tokens: integer("tokens"),
    createdAt: text("created_at").notNull(),
  },
  (t) => [index("agent_tool_calls_instance_idx").on(t.instanceId, t.createdAt)],
);

/**
 * The turns of the agent loops (ad-hoc subprocesses driven by an agent), one row per turn of a loop (its scope
 * execution): what the model answered, stored the moment it answered, so that a turn computed again (a restart, a
 * kill -9 before its command committed) reuses it instead of asking the model twice; and the conversation's record.
 */
export const agentLoopTurns = sqliteTable(
  "agent_loop_turns",
  {
    id: text("id").primaryKey(),
    instanceId: text("instance_id").notNull(),
    scopeId: text("scope_id").notNull(),
    subProcessId: text("sub_process_id").notNull(),
    agentKey: text("agent_key").notNull(),
    turn: integer("turn").notNull(),
    /** JSON: the tool results the turn was given, and its answer (messages, calls, final outputs) */
    results: text("results").notNull(),
    answer: text("answer").notNull(),
    tokens: integer("tokens").notNull(),
    durationMs: integer("duration_ms").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("agent_loop_turns_turn_idx").on(t.scopeId, t.turn),
    index("agent_loop_turns_instance_idx").on(t.instanceId, t.createdAt),
  ],
);

/**
 * The model steps of an agent loop's turn that is still being asked (the model called only the agent's own tools,
 * which ran at once): one row per step, written in one transaction with its audit records as the model answered, so
 * that a turn run again (a restart, a kill -9 between two steps) replays them instead of asking the model again or
 * running its own tools again. Deleted in the transaction that stores the turn (its answer holds every step's
 * messages).
 */
export const agentLoopSteps = sqliteTable(
  "agent_loop_steps",
  {
    id: text("id").primaryKey(),
    instanceId: text("instance_id").notNull(),
    scopeId: text("scope_id").notNull(),
    turn: integer("turn").notNull(),
    step: integer("step").notNull(),
    /** JSON: the step's messages (the model's, its own tools' results), the outputs set so far, its spend */
    data: text("data").notNull(),
    createdAt: text("created_at").notNull(),
  },
  (t) => [uniqueIndex("agent_loop_steps_step_idx").on(t.scopeId, t.turn, t.step)],
);
