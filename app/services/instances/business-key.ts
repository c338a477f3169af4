import { randomInt } from "node:crypto";
import { UnprocessableError, type FieldError } from "../errors";

export const DEFAULT_BUSINESS_KEY_TEMPLATE = "DOC-${date:yyyyMMdd}-${random:4}";
const RANDOM_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

type Part = { kind: "text"; text: string } | { kind: "placeholder"; name: string; fallback: Part[] | null };

/** Splits a template into text and `${...}` placeholders; fallbacks may nest placeholders. */
function parse(template: string, from = 0, stopAtBrace = false): { parts: Part[]; end: number } {
  const parts: Part[] = [];
  let text = "";
  let i = from;
  while (i < template.length) {
    if (stopAtBrace && template[i] === "}") break;
    if (template.startsWith("${", i)) {
      if (text) parts.push({ kind: "text", text });
      text = "";
      const close = placeholderBody(template, i + 2);
      parts.push(close.part);
      i = close.end + 1;
      continue;
    }
    text += template[i++];
  }
  if (text) parts.push({ kind: "text", text });
  return { parts, end: i };
}

function placeholderBody(template: string, start: number): { part: Part; end: number } {
  const sep = template.indexOf(":-", start);
  const close = template.indexOf("}", start);
  if (close < 0) throw new UnprocessableError(`Business key template has an unclosed placeholder: ${template}`);
  if (sep >= 0 && sep < close) {
    const name = template.slice(start, sep).trim();
    const fb = parse(template, sep + 2, true);
    if (template[fb.end] !== "}")
      throw new UnprocessableError(`Business key template has an unclosed placeholder: ${template}`);
    return { part: { kind: "placeholder", name, fallback: fb.parts }, end: fb.end };
  }
  return { part: { kind: "placeholder", name: template.slice(start, close).trim(), fallback: null }, end: close };
}

/** Formats a date with the Java-style letters yyyy, yy, MM, dd, HH, mm, ss (UTC). */
export function formatDate(d: Date, pattern: string): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const tokens: Record<string, string> = {
    yyyy: String(d.getUTCFullYear()),
    yy: p(d.getUTCFullYear() % 100),
    MM: p(d.getUTCMonth() + 1),
    dd: p(d.getUTCDate()),
    HH: p(d.getUTCHours()),
    mm: p(d.getUTCMinutes()),
    ss: p(d.getUTCSeconds()),
  };
  return pattern.replace(/yyyy|yy|MM|dd|HH|mm|ss/g, (t) => tokens[t]);
}

function valueOf(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  const s = typeof v === "object" ? JSON.stringify(v) : String(v);
  return s.trim() ? s : null;
}

function render(parts: Part[], vars: Record<string, unknown>, now: Date, missing: Set<string>): string {
  let out = "";
  for (const part of parts) {
    if (part.kind === "text") {
      out += part.text;
      continue;
    }
    if (part.name.startsWith("date:")) out += formatDate(now, part.name.slice(5));
    else if (part.name.startsWith("random:")) {
      const n = Math.min(64, Math.max(1, Number(part.name.slice(7)) || 4));
      for (let i = 0; i < n; i++) out += RANDOM_ALPHABET[randomInt(RANDOM_ALPHABET.length)];
    } else {
      const value = valueOf(vars[part.name]);
      if (value !== null) out += value;
      else if (part.fallback) out += render(part.fallback, vars, now, missing);
      else missing.add(part.name);
    }
  }
  return out;
}

/**
 * Resolves the business key of a new instance: a non-blank requested key wins, then the definition's template, then
 * the system default. Missing variables or a key of separators only refuse the start with 422.
 */
export function resolveBusinessKey(
  requested: string | null | undefined,
  template: string | null | undefined,
  variables: Record<string, unknown>,
  now: Date,
): string {
  if (requested?.trim()) return requested.trim();
  const tpl = template?.trim() ? template : DEFAULT_BUSINESS_KEY_TEMPLATE;
  const missing = new Set<string>();
  const key = render(parse(tpl).parts, variables, now, missing).trim();
  if (missing.size) {
    const fieldErrors: FieldError[] = [...missing].map((name) => ({
      field: name,
      message: `variable '${name}' is required by the business key template and missing`,
    }));
    throw new UnprocessableError(
      `Business key template ${tpl} needs variables that are missing: ${[...missing].join(", ")}`,
      fieldErrors,
    );
  }
  if (!/[\p{L}\p{N}]/u.test(key)) {
    throw new UnprocessableError(`Business key template ${tpl} resolved to an empty key`, [
      { field: "businessKey", message: "the template resolved to separators only" },
    ]);
  }
  return key;
}
