export { createBpmnEngine, type BpmnEngine, type Actor } from "./engine";
export { Session, type ChangeSet } from "./session";
export type { EngineStore } from "./store";
export type { EngineDeps, DecisionEvaluator, EngineLogger } from "./deps";
export type * from "./agent-loop-types";
export * from "./state";
export {
  createDelegateRegistry,
  BpmnError,
  type Delegate,
  type DelegateRegistry,
  type DelegateContext,
} from "./delegates/registry";
export type { StartOptions } from "./instance-start";
export type { EnabledAdhocActivity } from "./adhoc-commands";
export type { CorrelateOptions, Correlated } from "./events/broadcast";
