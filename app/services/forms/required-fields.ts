import { LAYOUT_TYPES } from "./field-types";
import { isVisible } from "./visibility";

type Values = Record<string, unknown>;
type Node = Record<string, unknown>;

const isObject = (v: unknown): v is Node => v !== null && typeof v === "object" && !Array.isArray(v);

/** Whether a submitted value counts as "not filled" for a field of this type. */
function isEmpty(type: unknown, value: unknown): boolean {
  // A required checkbox means "must be ticked" (terms, confirmations), as in HTML.
  if (type === "checkbox") return value !== true && value !== "true";
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "number") return Number.isNaN(value);
  return false;
}

/** `fields` format: sections and headings are never required; a hidden field (and a hidden section's children) is skipped. */
function walkFields(list: unknown, values: Values, out: string[]): void {
  if (!Array.isArray(list)) return;
  for (const f of list) {
    if (!isObject(f) || !isVisible(f.visibleIf, values)) continue;
    if (f.type === "section") {
      walkFields(f.fields, values, out);
      continue;
    }
    // Hidden fields are set by the process, not typed by the person completing the task.
    if (LAYOUT_TYPES.has(String(f.type)) || f.type === "hidden" || typeof f.key !== "string") continue;
    const value = values[f.key];
    if (f.required === true && isEmpty(f.type, value)) out.push(f.key);
    if (f.type === "table" && Array.isArray(value)) walkTableRows(f.key, f.columns, value, values, out);
  }
}

/** Required columns are checked in every row; a column's visibleIf sees the form values overlaid with the row's. */
function walkTableRows(table: string, columns: unknown, rows: unknown[], values: Values, out: string[]): void {
  if (!Array.isArray(columns)) return;
  rows.forEach((row, i) => {
    const cells = isObject(row) ? row : {};
    const scope = { ...values, ...cells };
    for (const c of columns) {
      if (!isObject(c) || c.required !== true || typeof c.key !== "string" || c.type === "hidden") continue;
      if (isVisible(c.visibleIf, scope) && isEmpty(c.type, cells[c.key])) out.push(`${table}[${i}].${c.key}`);
    }
  });
}

/** Form.io's simple conditional `{show, when, eq}`: shown when values[when] equals eq (as text), inverted by show false. */
function formioShown(conditional: unknown, values: Values): boolean {
  if (!isObject(conditional) || typeof conditional.when !== "string" || conditional.when === "") return true;
  const matches = String(values[conditional.when] ?? "") === String(conditional.eq ?? "");
  const show = conditional.show === true || conditional.show === "true";
  return show ? matches : !matches;
}

/** `components` format (Form.io style): `validate.required`, `hidden`, simple conditionals, nested layouts. */
function walkComponents(list: unknown, values: Values, out: string[]): void {
  if (!Array.isArray(list)) return;
  for (const c of list) {
    if (!isObject(c) || c.hidden === true) continue;
    if (!formioShown(c.conditional, values) || !isVisible(c.visibleIf, values)) continue;
    const required = isObject(c.validate) && c.validate.required === true;
    if (required && c.input !== false && typeof c.key === "string" && isEmpty(c.type, values[c.key])) out.push(c.key);
    walkComponents(c.components, values, out);
    if (Array.isArray(c.columns))
      for (const col of c.columns) if (isObject(col)) walkComponents(col.components, values, out);
    if (Array.isArray(c.rows)) {
      for (const row of c.rows)
        if (Array.isArray(row))
          for (const cell of row) if (isObject(cell)) walkComponents(cell.components, values, out);
    }
  }
}

/**
 * Keys of the required fields of `schema` left unfilled in `values`, in form order. Conditional rules are honoured: a
 * field hidden by its `visibleIf` (FEEL over the values) is not required. `values` should be everything the form shows:
 * the variables already saved overlaid with those being submitted.
 */
export function missingRequiredFields(schema: unknown, values: Values): string[] {
  let s = schema;
  if (typeof s === "string") {
    try {
      s = JSON.parse(s);
    } catch {
      return [];
    }
  }
  if (!isObject(s)) return [];
  const out: string[] = [];
  if (Array.isArray(s.fields)) walkFields(s.fields, values ?? {}, out);
  else walkComponents(s.components, values ?? {}, out);
  return out;
}
