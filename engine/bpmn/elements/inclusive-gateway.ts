import type { Behaviour } from "../behaviour";

/** Forks on every true condition (else the default); joins once no other token of the scope can still arrive (checked when the agenda is idle). */
export const inclusiveGateway: Behaviour = {
  execute(run, token, el) {
    if (el.incoming.length <= 1) return run.leave(token, run.selectFlows(token, el));
    token.state = "joined";
    run.mark(token);
  },
};
