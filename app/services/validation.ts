import { BadRequestError } from "./errors";

/** A zod issue as both zod 3 and 4 report it. */
interface Issue {
  path: PropertyKey[];
  message: string;
}

/** Turns a schema failure into the 400 with fieldErrors (paths joined with dots): REST's hook and MCP's tools share it. */
export function validationError(issues: readonly Issue[]): BadRequestError {
  const fieldErrors = issues.map((i) => ({ field: i.path.map(String).join(".") || "(body)", message: i.message }));
  return new BadRequestError(
    `Validation failed: ${fieldErrors.map((f) => `${f.field} ${f.message}`).join("; ")}`,
    fieldErrors,
  );
}

/** A search by a variable's value (tasks, instances) needs both its name and its value: the missing one, named. */
export function variablePairIssues(q: { varName?: string; varValue?: string }): Issue[] {
  if (q.varName !== undefined && q.varValue === undefined)
    return [{ path: ["varValue"], message: "is required with varName" }];
  if (q.varValue !== undefined && q.varName === undefined)
    return [{ path: ["varName"], message: "is required with varValue" }];
  return [];
}
