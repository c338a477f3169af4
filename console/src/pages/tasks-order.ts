/**
 * The tasklist's filter as the page holds it, the query it sends (GET /a/tasks and /a/tasks/count filter, search and
 * sort on the server), and the saved filters kept per user and company in the browser (pure: tested without one).
 */

export type SortKey = "created" | "due" | "priority" | "name";
export type Show = "all" | "mine" | "candidate";
export type Due = "" | "overdue" | "today" | "week";

export interface TaskFilter {
  show: Show;
  processKey: string;
  candidateGroup: string;
  /** A user id (Admins pick a member); empty for anyone. */
  assignee: string;
  due: Due;
  search: string;
  varName: string;
  varValue: string;
  sort: SortKey;
}

export const EMPTY_FILTER: TaskFilter = {
  show: "all",
  processKey: "",
  candidateGroup: "",
  assignee: "",
  due: "",
  search: "",
  varName: "",
  varValue: "",
  sort: "created",
};

const DAY = 86_400_000;

/**
 * The due window in the browser's own day: overdue is due before now; today is due from this midnight to the next;
 * this week is due from this midnight to seven days later (overdue tasks of earlier days are under "overdue").
 */
export function dueWindow(due: Due, now: Date): { dueAfter?: string; dueBefore?: string } {
  if (!due) return {};
  if (due === "overdue") return { dueBefore: now.toISOString() };
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  const end = new Date(midnight.getTime() + (due === "today" ? DAY : 7 * DAY));
  return { dueAfter: midnight.toISOString(), dueBefore: end.toISOString() };
}

/** The query of GET /a/tasks/count for a filter (and of GET /a/tasks with the page added); empty parts left out. */
export function taskQuery(f: TaskFilter, now: Date): string {
  const q = new URLSearchParams();
  if (f.show === "mine") q.set("mine", "true");
  if (f.show === "candidate") q.set("unassigned", "true");
  if (f.processKey) q.set("processKey", f.processKey);
  if (f.candidateGroup) q.set("candidateGroup", f.candidateGroup);
  if (f.assignee && f.show !== "candidate") q.set("assignee", f.assignee);
  for (const [k, v] of Object.entries(dueWindow(f.due, now))) if (v) q.set(k, v);
  if (f.search.trim()) q.set("search", f.search.trim());
  // A variable search needs both (the server refuses one alone): a name with no value yet waits.
  if (f.varName.trim() && f.varValue !== "") {
    q.set("varName", f.varName.trim());
    q.set("varValue", f.varValue);
  }
  if (f.sort !== "created") q.set("sort", f.sort);
  return q.toString();
}

export interface SavedFilter {
  name: string;
  filter: TaskFilter;
}

/** Where a user's saved filters live in one company: the browser's localStorage (docs/decisions.md). */
export const savedKey = (tenant: string, userId: string) => `pms.taskFilters.${tenant}.${userId}`;

/** Saved filters read back from storage; anything unreadable is dropped, missing fields take their defaults. */
export function readSaved(raw: string | null): SavedFilter[] {
  if (!raw) return [];
  try {
    const list = JSON.parse(raw);
    if (!Array.isArray(list)) return [];
    return list
      .filter((s) => s && typeof s.name === "string" && s.name.trim() && s.filter && typeof s.filter === "object")
      .map((s) => ({ name: s.name, filter: { ...EMPTY_FILTER, ...pick(s.filter) } }));
  } catch {
    return [];
  }
}

/** Only the known fields, each of its type (a stored value could have been edited by hand). */
const CHOICES: Record<string, string[]> = {
  show: ["all", "mine", "candidate"],
  due: ["", "overdue", "today", "week"],
  sort: ["created", "due", "priority", "name"],
};
function pick(o: Record<string, unknown>): Partial<TaskFilter> {
  const out: Record<string, string> = {};
  for (const k of Object.keys(EMPTY_FILTER)) {
    const v = o[k];
    if (typeof v === "string" && (!CHOICES[k] || CHOICES[k].includes(v))) out[k] = v;
  }
  return out as Partial<TaskFilter>;
}

/** Adds or replaces (same name) a saved filter, keeping the others in their order. */
export function withSaved(list: SavedFilter[], name: string, filter: TaskFilter): SavedFilter[] {
  const n = name.trim();
  const i = list.findIndex((s) => s.name === n);
  const entry = { name: n, filter };
  return i < 0 ? [...list, entry] : list.map((s, j) => (j === i ? entry : s));
}
