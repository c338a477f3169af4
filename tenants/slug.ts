/** The one form of a tenant slug: trimmed and lowercased. Every place that reads a slug from a caller applies it. */
export function normalizeSlug(slug: string): string {
  return slug.trim().toLowerCase();
}
