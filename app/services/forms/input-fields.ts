import { LAYOUT_TYPES } from "./field-types";

type Node = Record<string, unknown>;
const isObject = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);

/** A field a person fills in, as an AI suggestion sees it. */
export interface InputField {
  key: string;
  type: string;
  label: string | null;
  required: boolean;
  options?: unknown;
  columns?: unknown;
}

/** Types a person does not type a value into: layout, hidden values set by the process, uploads. */
const SKIPPED: ReadonlySet<string> = new Set([...LAYOUT_TYPES, "hidden", "file", "button", "htmlelement", "content"]);

const optionsOf = (f: Node) => f.options ?? f.values ?? (isObject(f.data) ? f.data.values : undefined);

function walk(list: unknown, out: InputField[]): void {
  if (!Array.isArray(list)) return;
  for (const f of list) {
    if (!isObject(f)) continue;
    const type = String(f.type ?? "text");
    if (typeof f.key === "string" && !SKIPPED.has(type) && f.input !== false && f.hidden !== true) {
      const required = f.required === true || (isObject(f.validate) && f.validate.required === true);
      const label = typeof f.label === "string" ? f.label : null;
      out.push({ key: f.key, type, label, required, options: optionsOf(f), columns: f.columns });
    }
    // `fields` sections, Form.io panels, columns and table layouts hold more fields.
    walk(f.fields, out);
    walk(f.components, out);
    if (type !== "table" && Array.isArray(f.columns))
      for (const col of f.columns) if (isObject(col)) walk(col.components, out);
    if (Array.isArray(f.rows))
      for (const row of f.rows)
        if (Array.isArray(row)) for (const cell of row) if (isObject(cell)) walk(cell.components, out);
  }
}

/** The fields of a form schema (either format: `fields` or Form.io `components`) a person fills in, in form order. */
export function inputFieldsOf(schema: unknown): InputField[] {
  if (!isObject(schema)) return [];
  const out: InputField[] = [];
  walk(Array.isArray(schema.fields) ? schema.fields : schema.components, out);
  const seen = new Set<string>();
  return out.filter((f) => !seen.has(f.key) && seen.add(f.key));
}
