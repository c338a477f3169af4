import type { Database } from "bun:sqlite";
import { commitOffloadingSync, immediate } from "../../../db/connection";
import { writeGate } from "../../../db/write-gate";

interface Waiting {
  write: () => void;
  settle: (err: unknown) => void;
}

/**
 * Group commit, one per connection for processes and cases alike: the writes of the commands that finish computing
 * within one event-loop turn share one BEGIN IMMEDIATE … COMMIT, each in its own savepoint. A failing write (revision
 * conflict, task completed meanwhile) rolls back its savepoint only, so every command stays all or nothing while the
 * commit, where the time goes (each dirty page is written to the WAL once per commit), is paid once for the group.
 * Callers learn their outcome only after the COMMIT, so nothing is reported before it is durable: under FULL on the
 * engine database that includes the fsync of the WAL, which runs off the event loop (db/wal-sync.ts) while the next
 * group already computes and commits. While the checkpointer holds the connection's write gate (db/write-gate.ts), the
 * group keeps growing and commits when it is released.
 */
export function createGroupCommit(db: Database) {
  let waiting: Waiting[] = [];
  const inSavepoint = db.transaction((w: Waiting) => w.write());
  const gate = writeGate(db);
  const flush = () => {
    if (gate.held) return gate.afterRelease(flush);
    const group = waiting;
    waiting = [];
    const errors: unknown[] = group.map(() => null);
    let durable: (() => Promise<void>) | undefined;
    try {
      durable = commitOffloadingSync(db, () =>
        immediate(db, () => {
          // A group of one needs no savepoint: its failure rolls back the whole (its own) transaction.
          if (group.length === 1) return group[0].write();
          group.forEach((w, i) => {
            try {
              inSavepoint(w);
            } catch (e) {
              errors[i] = e ?? new Error("command failed");
            }
          });
        }),
      );
    } catch (e) {
      errors.fill(e ?? new Error("commit failed"));
    }
    const settle = () => group.forEach((w, i) => w.settle(errors[i]));
    if (!durable || errors.every((e) => e)) return settle();
    durable().then(settle, (e) => {
      errors.fill(e ?? new Error("WAL sync failed"));
      settle();
    });
  };
  /** Resolves once `write` is committed; rejects with what it threw, or with the commit's failure. */
  return (write: () => void) =>
    new Promise<void>((resolve, reject) => {
      if (!waiting.length) setImmediate(flush);
      waiting.push({ write, settle: (err) => (err ? reject(err) : resolve()) });
    });
}
export type GroupCommit = ReturnType<typeof createGroupCommit>;
