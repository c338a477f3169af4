export type Scope = "read" | "write";
export const VALID_SCOPES: readonly Scope[] = ["read", "write"];

/** Reads stored scopes failing closed: unknown entries are ignored, anything malformed grants nothing. */
export function parseScopes(raw: string | null | undefined): Set<Scope> {
  const granted = new Set<Scope>();
  if (!raw) return granted;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return granted;
  }
  if (!Array.isArray(parsed)) return granted;
  for (const s of parsed) if (s === "read" || s === "write") granted.add(s);
  return granted;
}

/** The scope an HTTP method needs: reads for GET/HEAD/OPTIONS, writes for everything else. */
export function scopeForMethod(method: string): Scope {
  const m = method.toUpperCase();
  return m === "GET" || m === "HEAD" || m === "OPTIONS" ? "read" : "write";
}
