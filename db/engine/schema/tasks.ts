import { sql } from "drizzle-orm";
import { sqliteTable, text, integer, index, primaryKey } from "drizzle-orm/sqlite-core";

/** User tasks, open and finished (the same row is their history, with who completed them and through which channel). */
export const tasks = sqliteTable(
  "tasks",
  {
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
  },
  (t) => [
    // Partial indexes: a completion removes the task from the open ones and adds it to the completed one, nothing else.
    index("tasks_open_idx").on(t.tenantId, t.created).where(sql`state = 'OPEN'`),
    index("tasks_open_assignee_idx")
      .on(t.tenantId, t.assignee, t.created)
      .where(sql`state = 'OPEN' AND assignee IS NOT NULL`),
    index("tasks_completed_idx").on(t.tenantId, t.completedAt).where(sql`state = 'COMPLETED'`),
    index("tasks_instance_idx").on(t.instanceId),
  ],
);

/**
 * Candidate users and groups of tasks, one row each. `state` and `created` copy the task's so the inbox of a user is read
 * from the open index alone, in date order (the index carries task_id, the key). Rows written without them (NULL) are
 * read through the task row instead.
 */
export const taskCandidates = sqliteTable(
  "task_candidates",
  {
    taskId: text("task_id").notNull(),
    tenantId: text("tenant_id").notNull(),
    kind: text("kind").notNull(),
    principal: text("principal").notNull(),
    state: text("state"),
    created: integer("created"),
  },
  (t) => [
    primaryKey({ columns: [t.taskId, t.kind, t.principal] }),
    index("task_candidates_open_idx").on(t.tenantId, t.kind, t.principal, t.created).where(sql`state = 'OPEN'`),
    index("task_candidates_unstated_idx").on(t.tenantId, t.kind, t.principal).where(sql`state IS NULL`),
  ],
);
