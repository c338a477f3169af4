export * from "./types";
export { parseBpmn, isActivityType } from "./parse";
export { validateProcess, type ValidateOptions } from "./validate";
