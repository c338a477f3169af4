import type { Behaviour } from "./behaviour";

/** Event listeners never become active: they occur from available (trigger, timer); ending one drops its timer. */
export const eventListener: Behaviour = {
  start() {},
  end(run, pi) {
    if (pi.type === "timerEventListener") run.s.cancelTimers(pi);
  },
};
