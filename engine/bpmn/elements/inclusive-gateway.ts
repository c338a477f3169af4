import type { Behaviour } from "../behaviour";

/** Forks on every true condition (else the default); joins once no other token of the scope can still arrive (checked when the agenda is idle). */
export const inclusiveGateway: Behaviour = {
  execute(run, token, el) {
    if (el.incoming.length <= 1) {
      const flows = run.chooseFlows(token, el);
      return Array.isArray(flows) ? run.leave(token, flows) : flows.then((f) => run.leave(token, f));
    }
    token.state = "joined";
    run.mark(token);
  },
};
