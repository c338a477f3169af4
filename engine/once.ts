/**
 * Work a command does outside the engine while it computes (an agent's model run), done once per command run. The
 * runtime computes a command again from fresh state when its write meets a revision conflict; the work of the first
 * attempt then serves every later one (its answer, or its failure), so a model is not asked again and its tool calls,
 * usage and failure record are not repeated. Nothing of it is written unless the command commits: the engine applies
 * the answer to the attempt's session like any other change.
 *
 * `key` names the work within the command (the instance and the step); the n-th call of one key in an attempt gets
 * the n-th answer of the first attempt that made it (a multi-instance step asks once per inner instance).
 */
export type Once = <T>(key: string, work: () => Promise<T>) => Promise<T>;

/** Outside a command run (a session only read, a unit test): the work is done every time. */
export const everyTime: Once = (_key, work) => work();

/** The memo of one command run: each attempt takes its view (its own call counts over the shared answers). */
export function commandMemo(): { attempt(): Once } {
  const answers = new Map<string, Promise<unknown>>();
  return {
    attempt() {
      const seen = new Map<string, number>();
      return <T>(key: string, work: () => Promise<T>): Promise<T> => {
        const n = seen.get(key) ?? 0;
        seen.set(key, n + 1);
        const slot = `${key}#${n}`;
        let answer = answers.get(slot) as Promise<T> | undefined;
        if (!answer) answers.set(slot, (answer = work()));
        return answer;
      };
    },
  };
}
