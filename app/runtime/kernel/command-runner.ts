import { ConflictError, RevisionConflict } from "../../../engine/errors";
import { commandMemo, type Once } from "../../../engine/once";
import type { GroupCommit } from "./group-commit";

/** One engine command: a fresh session, the engine's work on it, and the write of what it changed. */
export interface CommandSpec<S, T> {
  /** A fresh session for one attempt; `once` keeps work outside the engine (a model's answer) across the attempts. */
  open(once: Once): S;
  run(session: S): Promise<T>;
  /** Writes the session's changes; the group commit holds the transaction. Throws RevisionConflict when a row moved. */
  write(session: S): void;
  /** What a lasting conflict names ("Instance", "Case"). */
  subject: string;
}

const MAX_RETRIES = 8;

/**
 * Runs commands of either engine: compute on a fresh session, then write all or nothing through the group commit. A
 * command that read an instance another command moved meanwhile (revision check) is computed again from fresh state;
 * work it did outside the engine (an agent asking its model) is not done again: the first attempt's answer serves.
 */
export function createCommandRunner(commit: GroupCommit) {
  // Commands computed again after a revision conflict, since start (the metric engine_command_recomputations).
  let recomputations = 0;
  const runCommand = async function runCommand<S, T>(spec: CommandSpec<S, T>): Promise<{ result: T; session: S }> {
    const memo = commandMemo();
    for (let attempt = 0; ; attempt++) {
      const session = spec.open(memo.attempt());
      const result = await spec.run(session);
      try {
        await commit(() => spec.write(session));
        return { result, session };
      } catch (e) {
        if (!(e instanceof RevisionConflict)) throw e;
        if (attempt >= MAX_RETRIES)
          throw new ConflictError(`${spec.subject} ${e.instanceId} keeps changing concurrently; try again`);
        recomputations++;
      }
    }
  };
  return Object.assign(runCommand, { recomputations: () => recomputations });
}
export type CommandRunner = ReturnType<typeof createCommandRunner>;
