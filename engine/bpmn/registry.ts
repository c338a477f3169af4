import { UnprocessableError } from "../errors";
import type { Behaviour } from "./behaviour";
import { boundaryEvent } from "./elements/boundary-event";
import { businessRuleTask } from "./elements/business-rule-task";
import { callActivity } from "./elements/call-activity";
import { endEvent } from "./elements/end-event";
import { eventBasedGateway } from "./elements/event-based-gateway";
import { exclusiveGateway } from "./elements/exclusive-gateway";
import { inclusiveGateway } from "./elements/inclusive-gateway";
import { intermediateCatchEvent } from "./elements/intermediate-catch-event";
import { intermediateThrowEvent } from "./elements/intermediate-throw-event";
import { parallelGateway } from "./elements/parallel-gateway";
import { receiveTask } from "./elements/receive-task";
import { scriptTask } from "./elements/script-task";
import { serviceTask } from "./elements/service-task";
import { passThrough } from "./elements/simple-task";
import { startEvent } from "./elements/start-event";
import { subProcess } from "./elements/sub-process";
import { userTask } from "./elements/user-task";
import { adhocSubProcess } from "./elements/adhoc-sub-process";

/** Element type (moddle local name) to behaviour. */
const BEHAVIOURS: Record<string, Behaviour> = {
  startEvent,
  endEvent,
  intermediateCatchEvent,
  intermediateThrowEvent,
  boundaryEvent,
  userTask,
  serviceTask,
  sendTask: serviceTask,
  scriptTask,
  businessRuleTask,
  receiveTask,
  manualTask: passThrough,
  task: passThrough,
  exclusiveGateway,
  parallelGateway,
  inclusiveGateway,
  eventBasedGateway,
  subProcess,
  callActivity,
  // A transaction runs as an embedded subprocess; its cancel end event and cancel boundary give it its meaning.
  transaction: subProcess,
  adHocSubProcess: adhocSubProcess,
};

/** The behaviour of an element type; the parser refuses types without one, so a miss is a bug. */
export function behaviourFor(type: string): Behaviour {
  const b = BEHAVIOURS[type];
  if (!b) throw new UnprocessableError(`no behaviour for element type ${type}`);
  return b;
}
