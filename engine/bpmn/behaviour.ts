import type { ElementModel } from "../model/bpmn/types";
import type { Run } from "./run";
import type { ExecutionRecord } from "./state";

/** One element type's behaviour: `execute` runs when a token arrives; it leaves (run.leave) or leaves the token waiting. */
export interface Behaviour {
  execute(run: Run, token: ExecutionRecord, el: ElementModel): void | Promise<void>;
}
