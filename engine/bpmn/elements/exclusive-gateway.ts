import { UnprocessableError } from "../../errors";
import type { Behaviour } from "../behaviour";

/** Takes the first outgoing flow whose condition holds (in model order), else the default; none is an error. */
export const exclusiveGateway: Behaviour = {
  execute(run, token, el) {
    const flows = run.model(token).flows;
    const ids = el.outgoing.filter((id) => id !== el.default);
    const hit = ids.find((id) => run.flowTrue(token, flows[id])) ?? el.default;
    if (!hit) {
      if (!el.outgoing.length) return run.leave(token, []);
      throw new UnprocessableError(
        `No outgoing sequence flow of exclusive gateway '${el.id}' could be selected: no condition holds and there is no default flow`,
      );
    }
    run.leave(token, [flows[hit]]);
  },
};
