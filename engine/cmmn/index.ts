export * from "./state";
export type { CaseAgentStep, CaseEngineDeps } from "./deps";
export { CaseSession } from "./session";
export { caseEngine, type ManualOp } from "./engine";
export type { StartCaseInput } from "./start";
export { kindOfTimer } from "./timers";
