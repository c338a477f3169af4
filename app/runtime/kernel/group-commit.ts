import type { Database } from "bun:sqlite";
import { immediate } from "../../../db/connection";

interface Waiting {
  write: () => void;
  settle: (err: unknown) => void;
}

/**
 * Group commit, one per connection for processes and cases alike: the writes of the commands that finish computing
 * within one event-loop turn share one BEGIN IMMEDIATE … COMMIT, each in its own savepoint. A failing write (revision
 * conflict, task completed meanwhile) rolls back its savepoint only, so every command stays all or nothing while the
 * commit, where the time goes (each dirty page is written to the WAL once per commit), is paid once for the group.
 * Callers learn their outcome only after the COMMIT, so nothing is reported before it is durable.
 */
export function createGroupCommit(db: Database) {
  let waiting: Waiting[] = [];
  const inSavepoint = db.transaction((w: Waiting) => w.write());
  const flush = () => {
    const group = waiting;
    waiting = [];
    const errors: unknown[] = group.map(() => null);
    try {
      immediate(db, () => {
        group.forEach((w, i) => {
          try {
            inSavepoint(w);
          } catch (e) {
            errors[i] = e ?? new Error("command failed");
          }
        });
      });
    } catch (e) {
      errors.fill(e ?? new Error("commit failed"));
    }
    group.forEach((w, i) => w.settle(errors[i]));
  };
  /** Resolves once `write` is committed; rejects with what it threw, or with the commit's failure. */
  return (write: () => void) =>
    new Promise<void>((resolve, reject) => {
      if (!waiting.length) setImmediate(flush);
      waiting.push({ write, settle: (err) => (err ? reject(err) : resolve()) });
    });
}
export type GroupCommit = ReturnType<typeof createGroupCommit>;
