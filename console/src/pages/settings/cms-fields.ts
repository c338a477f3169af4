import { t } from "../../i18n";

/** A CMS collection's fields as the console edits them: one `name: type[!] Label` per line (`!`: required). */
export interface CmsField {
  name: string;
  type: string;
  label?: string;
  required?: boolean;
  options?: string[];
  [more: string]: unknown;
}

export const CMS_TYPES = [
  "text",
  "longtext",
  "number",
  "integer",
  "boolean",
  "date",
  "datetime",
  "email",
  "url",
  "select",
  "multiselect",
  "reference",
  "json",
] as const;

/** `size: select! Size = S, M, L`: options after `=` for select and multiselect. */
export function formatFields(fields: CmsField[]): string {
  return fields
    .map((f) => {
      const head = `${f.name}: ${f.type}${f.required ? "!" : ""}${f.label && f.label !== f.name ? ` ${f.label}` : ""}`;
      return f.options?.length ? `${head} = ${f.options.join(", ")}` : head;
    })
    .join("\n");
}

/**
 * The lines read back, or the first line that cannot be (by its number). A field named again keeps the other
 * properties it had (`previous`: unique, maxLength, a reference's collection), which the lines do not show.
 */
export function parseFields(text: string, previous: CmsField[] = []): { fields: CmsField[] } | { error: string } {
  const fields: CmsField[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*:\s*([a-z]+)(!?)\s*([^=]*?)\s*(?:=\s*(.*))?$/.exec(line);
    if (!m || !(CMS_TYPES as readonly string[]).includes(m[2]))
      return {
        error: t("Line {n}: write “name: type Label”, the type one of {types}.", {
          n: i + 1,
          types: CMS_TYPES.join(", "),
        }),
      };
    const [, name, type, bang, label, options] = m;
    const before = previous.find((f) => f.name === name);
    const field: CmsField = { ...(before?.type === type ? before : {}), name, type, required: bang === "!" };
    if (label) field.label = label;
    else delete field.label;
    if (options !== undefined)
      field.options = options
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean);
    else delete field.options;
    fields.push(field);
  }
  return { fields };
}

/** The text a record form shows for a stored value. */
export function toInput(f: CmsField, v: unknown): string {
  if (v === null || v === undefined) return "";
  if (f.type === "json") return JSON.stringify(v);
  if (f.type === "multiselect" && Array.isArray(v)) return v.join(", ");
  return String(v);
}

/**
 * A typed value from the form's text: numbers parsed, booleans from "true", multiselect split on commas, JSON parsed;
 * empty is absent (undefined). A text that cannot be read throws, naming the field.
 */
export function fromInput(f: CmsField, text: string): unknown {
  const s = text.trim();
  if (!s) return undefined;
  const label = f.label ?? f.name;
  if (f.type === "number" || f.type === "integer") {
    const n = Number(s);
    if (!Number.isFinite(n) || (f.type === "integer" && !Number.isInteger(n)))
      throw new Error(
        f.type === "integer" ? t("{label}: not a whole number.", { label }) : t("{label}: not a number.", { label }),
      );
    return n;
  }
  if (f.type === "boolean") return s === "true";
  if (f.type === "multiselect")
    return s
      .split(",")
      .map((x) => x.trim())
      .filter(Boolean);
  if (f.type === "json") {
    try {
      return JSON.parse(s);
    } catch {
      throw new Error(t("{label}: not JSON.", { label }));
    }
  }
  return s;
}
