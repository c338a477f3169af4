import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/**
 * The durable drop job of a tenant (one row per dropped tenant, kept after it finished as the record of the drop).
 * The row is the job: a process that restarts resumes every row without `finished_at`; every step is idempotent.
 */
export const tenantDrops = sqliteTable("tenant_drops", {
  tenantId: text("tenant_id").primaryKey(),
  requestedBy: text("requested_by"),
  requestedAt: text("requested_at").notNull(),
  /** ENGINE, PLATFORM, FILES, DONE: the step it is in. */
  phase: text("phase").notNull(),
  /** Rows deleted so far in the shared databases (at most one batch short after a crash). */
  deletedRows: integer("deleted_rows").notNull().default(0),
  attempts: integer("attempts").notNull().default(0),
  lastError: text("last_error"),
  updatedAt: text("updated_at").notNull(),
  finishedAt: text("finished_at"),
});
