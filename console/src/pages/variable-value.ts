/** Typed values of the instance's variable editor (pure: tested without a browser). */
import { t } from "../i18n";

export type VarType = "string" | "number" | "boolean" | "date" | "json" | "null";

/** The types offered, each with its label in the reader's language (read when the select is drawn). */
export const varTypes = (): { type: VarType; label: string }[] => [
  { type: "string", label: t("Text") },
  { type: "number", label: t("Number") },
  { type: "boolean", label: t("Yes/no") },
  { type: "date", label: t("Date (ISO text)") },
  { type: "json", label: t("JSON (object or list)") },
  { type: "null", label: t("Empty (null)") },
];

const ISO_DATE = /^\d{4}-\d\d-\d\d(T\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)?)?$/;

/** The type a stored value is edited as: an ISO date string as a date, objects and lists as JSON. */
export function typeOf(v: unknown): VarType {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "string") return ISO_DATE.test(v) ? "date" : "string";
  return "json";
}

/** The text a value is shown as in its editor. */
export function textOf(v: unknown): string {
  if (v === null || v === undefined) return "";
  if (typeof v === "string") return v;
  if (typeof v === "object") return JSON.stringify(v, null, 2);
  return String(v);
}

/**
 * Reads the typed text as the value to send, or says why it cannot be: a number must be finite ("1,5" is refused, not
 * guessed), yes/no is "true" or "false", a date is ISO (kept as text: the engine's dates are ISO strings), JSON must be
 * an object or a list.
 */
export function parseTyped(type: VarType, text: string): { value: unknown } | { error: string } {
  const v = text.trim();
  switch (type) {
    case "string":
      return { value: text };
    case "null":
      return { value: null };
    case "number": {
      const n = Number(v);
      return v !== "" && Number.isFinite(n) ? { value: n } : { error: t("Enter a number such as 12 or 3.5.") };
    }
    case "boolean":
      return v === "true" || v === "false" ? { value: v === "true" } : { error: t("Choose true or false.") };
    case "date":
      return ISO_DATE.test(v) && !Number.isNaN(Date.parse(v))
        ? { value: v }
        : { error: t("Enter a date as 2026-03-31 or 2026-03-31T14:00:00Z.") };
    case "json":
      try {
        const parsed = JSON.parse(v);
        return parsed !== null && typeof parsed === "object"
          ? { value: parsed }
          : { error: t("Enter a JSON object or list.") };
      } catch {
        return { error: t("This is not valid JSON.") };
      }
  }
}

/** A variable name the engine's expressions can read: a letter or underscore, then letters, digits or underscores. */
export const validName = (n: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n);
