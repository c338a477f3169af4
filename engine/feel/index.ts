// The one FEEL of the engine: BPMN conditions, CMMN sentries and DMN all compile here, once, and get errors as values.
export { type CompiledExpression, compileExpression } from "./expression";
export { callFeelFunction, guardCallable } from "./feelin-call";
export { type FeelError, type FeelResult, fail, ok } from "./result";
export { type CompiledUnaryTests, compileUnaryTests } from "./unary-tests";
export { type FeelTemporalValue, feelEquals, isContextValue, isTemporalValue, toJsonValue } from "./values";
export { parseFeelDate, parseFeelDateTime } from "./temporal-parse";
export { EXPRESSION_LIMITS, depthRefusal, lengthRefusal } from "./text-limits";
