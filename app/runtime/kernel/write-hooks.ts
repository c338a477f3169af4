import type { ChangeSet } from "../../../engine/bpmn";
import type { CaseChanges } from "../../../engine/cmmn";
import type { JobRow, TaskRow } from "./rows";

/** What a runtime write changed, seen by the hooks inside its transaction. */
export type WrittenChange =
  | { kind: "bpmn"; tenantId: string; changes: ChangeSet }
  /** completedTasks: the human tasks the case command completed, as written (the webhook's task.completed). */
  | { kind: "cmmn"; tenantId: string; changes: CaseChanges; completedTasks?: TaskRow[] }
  | { kind: "task-assigned"; tenantId: string; task: TaskRow }
  | { kind: "job-dead-lettered"; tenantId: string; job: JobRow; exception: string };

export type WriteHook = (change: WrittenChange) => void;

/**
 * Hooks that run inside the transaction of each runtime write (engine commands, task assignment, a job moving to the
 * dead letter): what they write commits or rolls back with the change itself (the webhook outbox relies on it). A hook
 * that throws fails the write, so hooks only write rows of the engine database.
 */
export function createWriteHooks() {
  const hooks: WriteHook[] = [];
  return {
    add(hook: WriteHook): () => void {
      hooks.push(hook);
      return () => {
        const i = hooks.indexOf(hook);
        if (i >= 0) hooks.splice(i, 1);
      };
    },
    emit(change: WrittenChange): void {
      for (const h of hooks) h(change);
    },
  };
}
export type WriteHooks = ReturnType<typeof createWriteHooks>;
