/** The tasklist's search and sort, over the inbox already loaded (pure: tested without a browser). */

export type SortKey = "created" | "due" | "priority" | "name";

export interface Sortable {
  name: string;
  businessKey: string | null;
  definitionKey: string;
  created: string;
  dueDate: string | null;
  priority: number;
}

const SORTS: Record<SortKey, (a: Sortable, b: Sortable) => number> = {
  // Newest first, as the API answers.
  created: (a, b) => b.created.localeCompare(a.created),
  // Soonest due first; tasks without a due date last.
  due: (a, b) =>
    a.dueDate === b.dueDate ? 0 : a.dueDate === null ? 1 : b.dueDate === null ? -1 : a.dueDate.localeCompare(b.dueDate),
  // Highest priority first.
  priority: (a, b) => b.priority - a.priority,
  name: (a, b) => a.name.localeCompare(b.name),
};

/**
 * The tasks whose name, business key or process key contains every word of `search` (case- and accent-insensitive),
 * in `sort` order; ties keep the API's order (newest first).
 */
export function arrange<T extends Sortable>(tasks: T[], search: string, sort: SortKey): T[] {
  const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
  const words = fold(search).split(/\s+/).filter(Boolean);
  const hit = (t: T) => {
    const text = fold(`${t.name} ${t.businessKey ?? ""} ${t.definitionKey}`);
    return words.every((w) => text.includes(w));
  };
  return tasks
    .filter(hit)
    .map((t, i) => [t, i] as const)
    .sort(([a, i], [b, j]) => SORTS[sort](a, b) || i - j)
    .map(([t]) => t);
}
