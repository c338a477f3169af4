import { UnprocessableError } from "../../errors";
import type { ElementModel, FlowModel } from "../../model/bpmn/types";
import type { Behaviour } from "../behaviour";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";

/** Takes the first outgoing flow whose condition holds (in model order), else the default; none is an error. */
export const exclusiveGateway: Behaviour = {
  execute(run, token, el) {
    const hit = run.firstTrueFlow(token, el);
    // A JavaScript condition answers from the script pool: the command goes on once it has.
    if (hit instanceof Promise) return hit.then((f) => take(run, token, el, f));
    take(run, token, el, hit);
  },
};

function take(run: Run, token: ExecutionRecord, el: ElementModel, hit: FlowModel | undefined): void {
  const flow = hit ?? (el.default ? run.model(token).flows[el.default] : undefined);
  if (!flow) {
    if (!el.outgoing.length) return run.leave(token, []);
    throw new UnprocessableError(
      `No outgoing sequence flow of exclusive gateway '${el.id}' could be selected: no condition holds and there is no default flow`,
    );
  }
  run.leave(token, [flow]);
}
