export * from "./types";
export { parseBpmn, isActivityType } from "./parse";
export { validateProcess, type ValidateOptions } from "./validate";
export { structuralFindings, isMalformed, type StructuralFinding, type FindingCode } from "./validate-structure";
