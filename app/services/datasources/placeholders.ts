/** `{{var:NAME}}` takes a tenant variable (secrets included); `{{param:NAME}}` an execute parameter. */
const PLACEHOLDER = /\{\{\s*(var|param)\s*:\s*([A-Za-z0-9_.-]+)\s*\}\}/g;
const WHOLE = /^\{\{\s*(var|param)\s*:\s*([A-Za-z0-9_.-]+)\s*\}\}$/;

export type Lookup = (kind: "var" | "param", name: string) => unknown;

/** Names of the tenant variables a configuration refers to, anywhere in it. */
export function referencedVariables(config: unknown): string[] {
  const names = new Set<string>();
  for (const m of JSON.stringify(config ?? null).matchAll(PLACEHOLDER)) if (m[1] === "var") names.add(m[2]);
  return [...names];
}

const asText = (v: unknown) => (v === undefined || v === null ? "" : typeof v === "string" ? v : JSON.stringify(v));

/** Replaces the placeholders of a string; `encode` is applied to each substituted value (URL encoding for URLs). */
export function fillText(template: string, lookup: Lookup, encode: (s: string) => string = (s) => s): string {
  return template.replace(PLACEHOLDER, (_, kind, name) => encode(asText(lookup(kind, name))));
}

/** Fills a JSON body template; a string that is exactly one placeholder keeps the value's own type. */
export function fillJson(template: unknown, lookup: Lookup): unknown {
  if (typeof template === "string") {
    const whole = template.match(WHOLE);
    return whole ? (lookup(whole[1] as "var" | "param", whole[2]) ?? null) : fillText(template, lookup);
  }
  if (Array.isArray(template)) return template.map((t) => fillJson(t, lookup));
  if (template && typeof template === "object") {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, fillJson(v, lookup)]));
  }
  return template;
}
