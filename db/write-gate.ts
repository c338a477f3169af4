import type { Database } from "bun:sqlite";

/**
 * A pause in a connection's group commits, asked for by the background checkpointer (db/checkpointer.ts) so that one
 * checkpoint can copy the last frames of the WAL while nothing new is written. SQLite starts the WAL over from its first
 * frame only when a write begins with every frame copied into the database; under continuous writes a checkpoint on
 * another thread never sees that moment, and the WAL would grow until a blocking TRUNCATE. While held, commands keep
 * computing and queue their writes; nothing waits on the event loop, and the pause lasts one short checkpoint.
 */
export interface WriteGate {
  readonly held: boolean;
  hold(): void;
  release(): void;
  /** Runs `fn` once the gate is released (at once when it is not held). */
  afterRelease(fn: () => void): void;
  /** Resolves once the gate is released (at once when it is not held): for writers that can await. */
  whenReleased(): Promise<void>;
}

const gates = new WeakMap<Database, WriteGate>();

/** The gate of a connection (one per connection: the group commit and the checkpointer share it). */
export function writeGate(db: Database): WriteGate {
  let gate = gates.get(db);
  if (!gate) {
    let held = false;
    let waiting: (() => void)[] = [];
    const afterRelease = (fn: () => void) => {
      if (held) waiting.push(fn);
      else fn();
    };
    gate = {
      get held() {
        return held;
      },
      hold: () => void (held = true),
      release() {
        held = false;
        const run = waiting;
        waiting = [];
        for (const fn of run) fn();
      },
      afterRelease,
      whenReleased: () => new Promise<void>((resolve) => afterRelease(resolve)),
    };
    gates.set(db, gate);
  }
  return gate;
}
