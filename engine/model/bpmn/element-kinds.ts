// Which BPMN element types the engine runs, ignores or refuses.
/** Elements holding flow elements of their own: embedded and event subprocesses, transactions, ad-hoc subprocesses. */
export const CONTAINERS = new Set(["subProcess", "transaction", "adHocSubProcess"]);
export const ACTIVITY_TYPES = new Set([
  "userTask",
  "serviceTask",
  "scriptTask",
  "businessRuleTask",
  "sendTask",
  "receiveTask",
  "manualTask",
  "task",
  "callActivity",
  ...CONTAINERS,
]);
export const SUPPORTED = new Set([
  ...ACTIVITY_TYPES,
  "startEvent",
  "endEvent",
  "intermediateCatchEvent",
  "intermediateThrowEvent",
  "boundaryEvent",
  "exclusiveGateway",
  "parallelGateway",
  "inclusiveGateway",
  "eventBasedGateway",
]);
export const IGNORED = new Set(["dataObject", "dataObjectReference", "dataStoreReference"]);
export const REFUSED: Record<string, string> = {
  complexGateway: "complex gateways are not supported",
  callChoreography: "choreographies are not executable",
};

export function isActivityType(type: string): boolean {
  return ACTIVITY_TYPES.has(type);
}

/** Subprocess family: an element whose inner elements run in a scope execution of their own. */
export function isContainerType(type: string): boolean {
  return CONTAINERS.has(type);
}
