import type { InstanceFilter } from "../../runtime/bpmn/instance-filter";
import { validationError, variablePairIssues } from "../validation";

/**
 * True when the list asks for the cockpit's search (any filter), after the checks that span fields (each a 400 naming
 * the field): a variable needs name and value, a start window must not end before it starts, and the filters read
 * process instances only, so `type=CMMN` cannot take them.
 */
export function hasFilter(f: InstanceFilter, type?: "BPMN" | "CMMN"): boolean {
  const issues: { path: PropertyKey[]; message: string }[] = variablePairIssues(f);
  if (f.startedAfter !== undefined && f.startedBefore !== undefined && f.startedAfter > f.startedBefore)
    issues.push({ path: ["startedBefore"], message: "must not be before startedAfter" });
  if (f.version !== undefined && !f.definitionKey)
    issues.push({ path: ["definitionKey"], message: "is required with version" });
  const given = Object.values(f).some((x) => x !== undefined && x !== "");
  if (given && type === "CMMN") issues.push({ path: ["type"], message: "filters apply to process instances (BPMN)" });
  if (issues.length) throw validationError(issues);
  return given;
}
