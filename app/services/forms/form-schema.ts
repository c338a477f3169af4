import { BadRequestError } from "../errors";
import { FIELD_TYPES, NON_COLUMN_TYPES, isFieldType } from "./field-types";
import { conditionSyntaxError } from "./visibility";

/** Largest schema stored, as JSON text; forms are definitions, not data. */
export const MAX_SCHEMA_CHARS = 1_000_000;

export type FormSchema = Record<string, unknown>;

const accepted = FIELD_TYPES.join(", ");
const fail = (message: string, field = "schema"): never => {
  throw new BadRequestError(message, [{ field, message }]);
};

/** The schema from a request: an object, or a JSON string holding one. Anything else is a 400. */
function toObject(input: unknown): FormSchema {
  let value = input;
  if (typeof input === "string") {
    try {
      value = JSON.parse(input);
    } catch (e) {
      fail(`schema is not valid JSON: ${(e as Error).message}`);
    }
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) fail("schema must be a JSON object");
  return value as FormSchema;
}

/**
 * Checks one list of fields (top level, a section's children or a table's columns). Keys must be unique across the
 * whole form (sections included) because the values are one flat object keyed by field key.
 */
function checkFields(list: unknown, path: string, seen: Set<string>, inTable: boolean): void {
  if (!Array.isArray(list)) fail(`${path} must be an array`);
  (list as unknown[]).forEach((raw, i) => {
    const where = `${path}[${i}]`;
    if (raw === null || typeof raw !== "object" || Array.isArray(raw)) fail(`${where} must be an object`);
    const f = raw as Record<string, unknown>;
    const label = typeof f.key === "string" ? `'${f.key}'` : where;
    if (f.type === undefined || f.type === null || f.type === "") {
      fail(`Field ${label} declares no type; accepted types: ${accepted}`, `${where}.type`);
    }
    if (!isFieldType(f.type)) {
      fail(`Unknown field type '${String(f.type)}' in field ${label}; accepted types: ${accepted}`, `${where}.type`);
    }
    const type = f.type as string;
    if (inTable && NON_COLUMN_TYPES.has(type))
      fail(`Table column ${label} cannot be of type '${type}'`, `${where}.type`);
    // Headings and sections only lay out the form; every other field stores a value under its key.
    if (type !== "heading" && type !== "section") {
      if (typeof f.key !== "string" || f.key.trim() === "")
        fail(`${where} needs a non-empty string key`, `${where}.key`);
      const key = f.key as string;
      if (seen.has(key)) fail(`Field key '${key}' is used twice`, `${where}.key`);
      seen.add(key);
    }
    if (f.visibleIf !== undefined) {
      const problem = typeof f.visibleIf === "string" ? conditionSyntaxError(f.visibleIf) : "must be a string";
      if (problem) fail(`visibleIf of field ${label} ${problem}`, `${where}.visibleIf`);
    }
    if (f.required !== undefined && typeof f.required !== "boolean")
      fail(`required of field ${label} must be a boolean`, `${where}.required`);
    if (type === "section" && f.fields !== undefined) checkFields(f.fields, `${where}.fields`, seen, false);
    if (type === "table") {
      if (f.columns === undefined) fail(`Table ${label} needs a columns array`, `${where}.columns`);
      // Columns are keyed within each row, so they get their own key space.
      checkFields(f.columns, `${where}.columns`, new Set(), true);
    }
  });
}

/**
 * Validates a form schema from a request and returns it with its canonical JSON text. A `fields` array is checked
 * field by field; a `components` array (Form.io style) is accepted as it is.
 */
export function parseFormSchema(input: unknown): { schema: FormSchema; text: string } {
  if (input === undefined) fail("schema is required");
  const schema = toObject(input);
  if (schema.fields !== undefined) checkFields(schema.fields, "fields", new Set(), false);
  else if (schema.components !== undefined && !Array.isArray(schema.components)) fail("components must be an array");
  const text = JSON.stringify(schema);
  if (text.length > MAX_SCHEMA_CHARS) fail(`schema is larger than ${MAX_SCHEMA_CHARS} characters`);
  return { schema, text };
}
