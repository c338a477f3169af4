import { when } from "../format";
import { useMemo, useState } from "preact/hooks";
import { api, session } from "../api";
import { html } from "../html";
import { takeFlash } from "../router";
import { Pending, useAction, useLoad } from "../use-load";
import { type Person, Who } from "../people";
import { arrange, type SortKey } from "./tasks-order";

export interface Task {
  id: string;
  name: string;
  instanceId: string;
  businessKey: string | null;
  definitionKey: string;
  assignee: string | null;
  /** The assignee's name and e-mail (GET /a/tasks and /a/tasks/{id} carry it). */
  assigneeUser?: Person | null;
  candidateUsers: string[];
  candidateGroups: string[];
  created: string;
  dueDate: string | null;
  priority: number;
  formKey: string | null;
  state: string;
}

const PAGE = 200;
/** The inbox reads up to this many pages of the largest size the API allows (GET /a/tasks caps size at 200). */
const MAX_PAGES = 10;
const PARALLEL = 5;

/**
 * Every open task visible to the caller (the server applies the visibility rules). The first page tells whether more
 * exist; the next ones are then read a few at a time in parallel, which keeps a 1,000-task inbox to two round trips.
 */
export async function loadTasks(mine: boolean): Promise<Task[]> {
  const get = (page: number) => api<Task[]>("GET", `/a/tasks?page=${page}&size=${PAGE}&mine=${mine}`);
  const all = await get(0);
  for (let page = 1; all.length === page * PAGE && page < MAX_PAGES; page += PARALLEL) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(PARALLEL, MAX_PAGES - page) }, (_, i) => get(page + i)),
    );
    all.push(...batch.flat());
  }
  return all;
}

export const who = (userId: string | null) =>
  userId === null ? "unassigned" : userId === session()?.user.id ? "me" : userId;

/** Claims or unclaims, then refreshes the list; the server decides who may. */
export async function claimAction(task: Task, action: "claim" | "unclaim"): Promise<void> {
  await api("POST", `/a/tasks/${task.id}/${action}`);
}

type Filter = "all" | "mine" | "candidate";

/** The inbox: filters (mine, candidate, process), sort, search, and claim/unclaim in the row. */
export function TasksPage() {
  const [filter, setFilter] = useState<Filter>("all");
  const [process, setProcess] = useState("");
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<SortKey>("created");
  const { error, run } = useAction();
  const [flash] = useState(takeFlash);
  const tasks = useLoad(() => loadTasks(filter === "mine"), [filter]);
  const me = session()?.user.id;
  const processes = useMemo(() => [...new Set((tasks.data ?? []).map((t) => t.definitionKey))].sort(), [tasks.data]);
  const shown = arrange(
    (tasks.data ?? []).filter(
      (t) => (filter !== "candidate" || t.assignee === null) && (!process || t.definitionKey === process),
    ),
    search,
    sort,
  );
  const act = (t: Task, action: "claim" | "unclaim") => run(() => claimAction(t, action).then(tasks.reload));
  return html`<section>
    ${flash ? html`<div class="notice" role="status">${flash}</div>` : null}
    <h1>Tasks</h1>
    <div class="filters" role="group" aria-label="Filters">
      <label for="flt">Show</label>
      <select id="flt" value=${filter} onChange=${(e: Event) => setFilter((e.currentTarget as HTMLSelectElement).value as Filter)}>
        <option value="all">All I can see</option>
        <option value="mine">Assigned to me</option>
        <option value="candidate">Open to claim</option>
      </select>
      <label for="proc">Process</label>
      <select id="proc" value=${process} onChange=${(e: Event) => setProcess((e.currentTarget as HTMLSelectElement).value)}>
        <option value="">All processes</option>
        ${processes.map((p) => html`<option value=${p}>${p}</option>`)}
      </select>
      <label for="sort">Sort by</label>
      <select id="sort" value=${sort} onChange=${(e: Event) => setSort((e.currentTarget as HTMLSelectElement).value as SortKey)}>
        <option value="created">Newest</option>
        <option value="due">Due soonest</option>
        <option value="priority">Highest priority</option>
        <option value="name">Name</option>
      </select>
      <label for="task-search">Search</label>
      <input id="task-search" type="search" placeholder="Name, business key, process" value=${search}
        onInput=${(e: Event) => setSearch((e.currentTarget as HTMLInputElement).value)} />
    </div>
    ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
    ${!tasks.data ? html`<${Pending} error=${tasks.error} />` : null}
    ${tasks.data && shown.length === 0 ? html`<p>No tasks.</p>` : null}
    ${tasks.data ? html`<p class="muted" aria-live="polite">${shown.length} task${shown.length === 1 ? "" : "s"}</p>` : null}
    <ul class="task-list" aria-label="Tasks">
      ${shown.map(
        (t) => html`<li class="task-row" key=${t.id}>
          <a href=${`#/tasks/${t.id}`}><strong>${t.name}</strong></a>
          <span class="muted">${t.definitionKey}${t.businessKey ? ` · ${t.businessKey}` : ""}</span>
          <span class="muted">${when(t.created)} · <${Who} id=${t.assignee} person=${t.assigneeUser} />${
            t.dueDate ? ` · due ${when(t.dueDate)}` : ""
          }${t.priority !== 50 ? ` · priority ${t.priority}` : ""}</span>
          ${
            t.assignee === null
              ? html`<button type="button" onClick=${() => act(t, "claim")} aria-label=${`Claim ${t.name}`}>Claim</button>`
              : t.assignee === me
                ? html`<button type="button" onClick=${() => act(t, "unclaim")} aria-label=${`Unclaim ${t.name}`}>Unclaim</button>`
                : null
          }
        </li>`,
      )}
    </ul>
  </section>`;
}
