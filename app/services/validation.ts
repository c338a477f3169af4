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
