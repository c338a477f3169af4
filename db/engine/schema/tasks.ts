import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

/** User tasks, open and finished (the same row is their history, with who completed them and through which channel). */
export const tasks = sqliteTable("tasks", {
  id: text("id").primaryKey(),
  tenantId: text("tenant_id").notNull(),
  instanceId: text("instance_id").notNull(),
  executionId: text("execution_id").notNull(),
  activityId: text("activity_id").notNull(),
  name: text("name").notNull(),
  businessKey: text("business_key"),
  definitionKey: text("definition_key").notNull(),
  definitionId: text("definition_id").notNull(),
  assignee: text("assignee"),
  owner: text("owner"),
  candidateUsers: text("candidate_users").notNull(),
  candidateGroups: text("candidate_groups").notNull(),
  created: integer("created").notNull(),
  dueDate: integer("due_date"),
  priority: integer("priority").notNull(),
  formKey: text("form_key"),
  formVersionId: text("form_version_id"),
  state: text("state").notNull(),
  completedAt: integer("completed_at"),
  completedBy: text("completed_by"),
  channel: text("channel"),
}, (t) => [
  index("tasks_tenant_state_idx").on(t.tenantId, t.state, t.created),
  index("tasks_assignee_idx").on(t.tenantId, t.assignee, t.state),
  index("tasks_instance_idx").on(t.instanceId),
  index("tasks_completed_by_idx").on(t.tenantId, t.completedBy, t.completedAt),
]);

/** Candidate users and groups of open tasks, one row each, so the inbox query is an index lookup. */
export const taskCandidates = sqliteTable("task_candidates", {
  taskId: text("task_id").notNull(),
  tenantId: text("tenant_id").notNull(),
  kind: text("kind").notNull(),
  principal: text("principal").notNull(),
}, (t) => [primaryKey({ columns: [t.taskId, t.kind, t.principal] }), index("task_candidates_lookup_idx").on(t.tenantId, t.kind, t.principal)]);
