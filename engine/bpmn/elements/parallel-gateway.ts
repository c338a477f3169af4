import type { Behaviour } from "../behaviour";

/** Joins: waits until as many tokens of the scope stand here as it has incoming flows; forks: all outgoing, conditions ignored. */
export const parallelGateway: Behaviour = {
  execute(run, token, el) {
    const flows = run.model(token).flows;
    const all = el.outgoing.map((id) => flows[id]);
    if (el.incoming.length <= 1) return run.leave(token, all);
    token.state = "joined";
    run.mark(token);
    const parent = run.parent(token)!;
    const joined = run.children(parent).filter((s) => s.state === "joined" && s.activityId === el.id);
    if (joined.length < el.incoming.length) return;
    for (const j of joined)
      if (j.id !== token.id) {
        run.actEnd(j, "completed");
        run.removeExecution(j);
      }
    token.state = "active";
    run.mark(token);
    run.leave(token, all);
  },
};
