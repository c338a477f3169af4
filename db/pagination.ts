/** The spec's paginated envelope. */
export interface Page<T> {
  content: T[];
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

/** Zero-based page and a size clamped to [1, max] (larger sizes are silently capped, as the spec says). */
export function pageParams(page: number | undefined, size: number | undefined, dflt: number, max: number) {
  const p = Math.max(0, Math.floor(Number(page ?? 0)) || 0);
  const s = Math.min(max, Math.max(1, Math.floor(Number(size ?? dflt)) || dflt));
  return { page: p, size: s, offset: p * s };
}

export function pageOf<T>(content: T[], totalElements: number, page: number, size: number): Page<T> {
  return { content, number: page, size, totalElements, totalPages: Math.ceil(totalElements / size) };
}
