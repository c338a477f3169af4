import { pageOf, pageParams, type Page } from "../../../db/pagination";

export type { Page } from "../../../db/pagination";

/** The spec's envelope (argument order kept for the runtime's callers). */
export const page = <T>(content: T[], number: number, size: number, total: number): Page<T> =>
  pageOf(content, total, number, size);

/** Zero-based page and a size clamped to [1, max], as everywhere in the API. */
export function paging(
  p: { page?: number; size?: number } | undefined,
  def: number,
  max: number,
): { page: number; size: number } {
  const { page, size } = pageParams(p?.page, p?.size, def, max);
  return { page, size };
}
