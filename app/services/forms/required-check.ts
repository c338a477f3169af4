import { BadRequestError } from "../errors";
import { missingRequiredFields } from "./required-fields";

/**
 * Refuses values that leave a required field of `schema` empty: 400 with the contract's message (interface spec,
 * task completion rule 3) and one `fieldErrors` entry per field key, so a client can put each under its field. The
 * same check guards completing a task and starting an instance, before anything is written.
 */
export function requireFilled(schema: unknown, values: Record<string, unknown>): void {
  const missing = missingRequiredFields(schema, values);
  if (!missing.length) return;
  throw new BadRequestError(
    `Campos obrigatórios não preenchidos: ${missing.join(", ")}`,
    missing.map((field) => ({ field, message: "required" })),
  );
}
