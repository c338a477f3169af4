export * from "./types";
export { parseCmmn, CmmnDeployError } from "./parse";
export { normaliseCondition } from "./conditions";
