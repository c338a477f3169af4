/**
 * The form logic of the console, free of any DOM so that `bun test` covers it: which fields show (`visibleIf`, FEEL,
 * the same evaluation the server uses), which are required and missing (the server's own check), how each field type
 * turns what was typed into the value sent, and what is sent on completion. See docs/forms.md.
 */
import { missingRequiredFields } from "../../../app/services/forms/required-fields";
import { isVisible } from "../../../app/services/forms/visibility";
import { t } from "../i18n";

export type Values = Record<string, unknown>;
export interface Option {
  value: unknown;
  label: string;
}
export interface Field {
  type: string;
  key?: string;
  label?: string;
  required?: boolean;
  visibleIf?: string;
  placeholder?: string;
  help?: string;
  defaultValue?: unknown;
  readOnly?: boolean;
  options?: unknown[];
  dataSource?: string;
  valueField?: string;
  labelField?: string;
  fields?: Field[];
  columns?: Field[];
  currency?: string;
  documentTypeId?: string;
  processRole?: string;
}
/** Raw input as the controls give it: text of an input, a checkbox's state, a multiselect's chosen texts. */
export type Raw = string | boolean | string[];
export type Parsed = { value: unknown; error?: string };

export const NUMBER_TYPES = new Set(["number", "integer", "decimal", "currency"]);
const LAYOUT = new Set(["section", "heading"]);

export const fieldsOf = (schema: unknown): Field[] => {
  const s = schema as { fields?: unknown } | null;
  return Array.isArray(s?.fields) ? (s.fields as Field[]) : [];
};

export const shown = (f: Field, values: Values): boolean => isVisible(f.visibleIf, values);

/** Options given inline, as `[{value, label}]` or plain values. */
export function optionsOf(f: Field): Option[] {
  return (f.options ?? []).map((o) =>
    o !== null && typeof o === "object" && "value" in o
      ? { value: (o as Option).value, label: String((o as Option).label ?? (o as Option).value) }
      : { value: o, label: String(o) },
  );
}

/** Rows of a data source turned into options with the field's `valueField`/`labelField` (defaults: value, label). */
export function optionsFromRows(f: Field, rows: Record<string, unknown>[]): Option[] {
  const v = f.valueField ?? "value";
  const l = f.labelField ?? "label";
  return rows.map((r) => ({ value: r[v], label: String(r[l] ?? r[v] ?? "") }));
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9][0-9 ().-]{3,}$/;

/** What a field holds once `raw` is typed in it; `error` names a format problem (the server checks no formats). */
export function parseValue(f: Field, raw: Raw, options: Option[] = optionsOf(f)): Parsed {
  if (f.type === "checkbox") return { value: raw === true || raw === "true" };
  if (f.type === "multiselect") {
    const chosen = Array.isArray(raw) ? raw : raw === "" ? [] : [String(raw)];
    return { value: chosen.map((t) => options.find((o) => String(o.value) === t)?.value ?? t) };
  }
  const text = typeof raw === "string" ? raw.trim() : String(raw);
  if (text === "") return { value: undefined };
  if (f.type === "select" || f.type === "radio")
    return { value: options.find((o) => String(o.value) === text)?.value ?? text };
  if (NUMBER_TYPES.has(f.type)) {
    const n = Number(text.replace(",", "."));
    if (!Number.isFinite(n)) return { value: undefined, error: t("must be a number") };
    if (f.type === "integer" && !Number.isInteger(n)) return { value: undefined, error: t("must be a whole number") };
    return { value: n };
  }
  if (f.type === "email" && !EMAIL.test(text)) return { value: text, error: t("must be an e-mail address") };
  if (f.type === "phone" && !PHONE.test(text)) return { value: text, error: t("must be a phone number") };
  if (f.type === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return { value: text, error: t("must be a date") };
  if (f.type === "time" && !/^\d{2}:\d{2}(:\d{2})?$/.test(text)) return { value: text, error: t("must be a time") };
  if (f.type === "datetime") {
    const d = new Date(text);
    return Number.isNaN(d.getTime())
      ? { value: text, error: t("must be a date and time") }
      : { value: d.toISOString() };
  }
  return { value: f.type === "textarea" ? String(raw) : text };
}

/** The text a control shows for a value (the inverse of parseValue for the input types). */
export function displayValue(f: Field, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (f.type === "datetime" && typeof value === "string") {
    const d = new Date(value);
    if (Number.isNaN(d.getTime())) return value;
    const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
    return local.toISOString().slice(0, 16);
  }
  return String(value);
}

/** Every value-holding field, sections flattened, each with the section chain that may hide it. */
export function valueFields(list: Field[], parents: Field[] = []): { field: Field; parents: Field[] }[] {
  return list.flatMap((f) =>
    f.type === "section"
      ? valueFields(f.fields ?? [], [...parents, f])
      : LAYOUT.has(f.type) || typeof f.key !== "string"
        ? []
        : [{ field: f, parents }],
  );
}

/** Starting values: the saved variables, else each field's `defaultValue`. */
export function initialValues(schema: unknown, saved: Values = {}): Values {
  const out: Values = {};
  for (const { field } of valueFields(fieldsOf(schema))) {
    const k = field.key as string;
    if (saved[k] !== undefined) out[k] = saved[k];
    else if (field.defaultValue !== undefined) out[k] = field.defaultValue;
    else if (field.type === "checkbox") out[k] = false;
  }
  return out;
}

const visibleNow = (e: { field: Field; parents: Field[] }, values: Values) =>
  e.parents.every((p) => shown(p, values)) && shown(e.field, values);

/**
 * The problems to show before sending: the required fields left empty (the server's rule, so the console never
 * refuses what the server would take) and format errors of visible fields. Keys as the server's fieldErrors name them.
 */
export function problems(
  schema: unknown,
  values: Values,
  formatErrors: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of missingRequiredFields(schema, values)) out[k] = "required";
  for (const e of valueFields(fieldsOf(schema)))
    if (formatErrors[e.field.key as string] && visibleNow(e, values))
      out[e.field.key as string] = formatErrors[e.field.key as string];
  return out;
}

/** What completing sends: the values of the fields shown now (a field hidden by its condition sends nothing). */
export function submission(schema: unknown, values: Values): Values {
  const out: Values = {};
  for (const e of valueFields(fieldsOf(schema))) {
    const k = e.field.key as string;
    if (values[k] === undefined || e.field.readOnly) continue;
    if (e.field.type === "hidden" || visibleNow(e, values)) out[k] = values[k];
  }
  return out;
}

/**
 * The label a person reads for a fieldErrors key: a field's label (else its key), a table cell's "Table, row n: Column".
 * Null for a key the form does not show, so the caller falls back to the server's own sentence.
 */
export function labelOfKey(schema: unknown, key: string): string | null {
  const cell = /^(.+)\[(\d+)\]\.(.+)$/.exec(key);
  const fields = valueFields(fieldsOf(schema)).map((e) => e.field);
  if (cell) {
    const table = fields.find((f) => f.key === cell[1] && f.type === "table");
    const col = table?.columns?.find((c) => c.key === cell[3]);
    if (!table || !col) return null;
    return t("{table}, row {n}: {column}", {
      table: table.label ?? table.key ?? "",
      n: Number(cell[2]) + 1,
      column: col.label ?? col.key ?? "",
    });
  }
  const f = fields.find((x) => x.key === key);
  return f ? (f.label ?? key) : null;
}

/**
 * The sentence above a refused form, in the console's words: when every field the server names is on the form, the
 * fields are named by label ("Please fill in: Days, Kind."), never the server's sentence, which names keys.
 */
export function refusalSummary(
  schema: unknown,
  fieldErrors: { field: string; message: string }[],
  serverMessage: string,
): string {
  if (!fieldErrors.length) return serverMessage;
  const labels = fieldErrors.map((e) => labelOfKey(schema, e.field));
  if (labels.some((l) => l === null)) return serverMessage;
  const allRequired = fieldErrors.every((e) => e.message === "required");
  const fields = labels.join(", ");
  return allRequired
    ? t("Please fill in the required fields: {fields}.", { fields })
    : t("Please correct the marked fields: {fields}.", { fields });
}
