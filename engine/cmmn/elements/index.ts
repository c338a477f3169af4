import type { Behaviour } from "./behaviour";
import { caseTask } from "./case-task";
import { decisionTask } from "./decision-task";
import { eventListener } from "./event-listener";
import { humanTask } from "./human-task";
import { milestone } from "./milestone";
import { processTask } from "./process-task";
import { stage } from "./stage";
import { task } from "./task";

const registry: Record<string, Behaviour> = {
  stage,
  task,
  milestone,
  humanTask,
  processTask,
  caseTask,
  decisionTask,
  userEventListener: eventListener,
  timerEventListener: eventListener,
  planModel: { start() {} },
};

/** The behaviour of a plan item type (the parser only lets known types through). */
export function behaviourOf(type: string): Behaviour {
  return registry[type];
}
