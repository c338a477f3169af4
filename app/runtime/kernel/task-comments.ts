import type { Database } from "bun:sqlite";
import type { taskComments } from "../../../db/engine/schema";
import { NotFoundError } from "../../../engine/errors";
import type { SqlRow } from "./sql-row";

export type TaskComment = typeof taskComments.$inferSelect;
type CommentRow = SqlRow<TaskComment>;

const toComment = (r: CommentRow): TaskComment => ({
  id: r.id,
  tenantId: r.tenant_id,
  taskId: r.task_id,
  userId: r.user_id,
  message: r.message,
  time: r.time,
});

/**
 * Comments on tasks of processes and cases (the task table is shared, so are its comments). Adding one waits first
 * while the checkpointer holds the engine's writes (`writable`, the kernel's), as every writer outside the group commit does,
 * and is written only onto a task that still exists after the wait: the caller saw the task before it, and the
 * history cleanup or a dropped tenant's purge may remove the task meanwhile (a comment then would be an orphan).
 */
export function createTaskComments(db: Database, writable: () => Promise<void>) {
  const q = {
    // rowid breaks ties of one millisecond in the order they were written
    list: db.query<CommentRow, [string, string]>(
      "SELECT * FROM task_comments WHERE tenant_id = ? AND task_id = ? ORDER BY time, rowid",
    ),
    add: db.query(
      `INSERT INTO task_comments (id, tenant_id, task_id, user_id, message, time)
       SELECT ?1, ?2, ?3, ?4, ?5, ?6 WHERE EXISTS (SELECT 1 FROM tasks WHERE id = ?3 AND tenant_id = ?2)`,
    ),
  };
  return {
    /** Comments of a task, oldest first. */
    taskComments: (tenantId: string, taskId: string): TaskComment[] => q.list.all(tenantId, taskId).map(toComment),
    async addTaskComment(c: TaskComment): Promise<TaskComment> {
      await writable();
      if (q.add.run(c.id, c.tenantId, c.taskId, c.userId, c.message, c.time).changes === 0)
        throw new NotFoundError(`Task ${c.taskId} not found`);
      return c;
    },
  };
}
