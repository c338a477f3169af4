// The DMN decision engine: pure (no I/O), parse once, evaluate many times.
export { parseDmn } from "./model/parse";
export { evaluateDecision } from "./drg/evaluate";
export { applyJsonTable, toJsonTable } from "./edit/json-table";
export { listDecisions } from "./model/list-decisions";
export { toJsonValue, feelEquals } from "../feel";
export { DmnDecisionNotFoundError, DmnError, DmnEvaluationError, DmnParseError, DmnValidationError } from "./errors";
export type { DecisionResult, DmnModel, JsonTable, HitPolicy, Aggregation } from "./types";
