import { when } from "../format";
import { useEffect, useMemo, useState } from "preact/hooks";
import { api, session } from "../api";
import { html } from "../html";
import { plural, t } from "../i18n";
import { takeFlash } from "../router";
import { Pending, useAction, useLoad } from "../use-load";
import { type Person, Who } from "../people";
import { EMPTY_FILTER, type TaskFilter, taskQuery } from "./tasks-order";
import { FilterBar, loadChoices, loadShowCounts, SavedFilters } from "./tasks-filters";

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

/** Rows per page of the tasklist (the API allows up to 200; 50 keep a page quick to draw and to scan). */
export const PAGE = 50;

/** One page of the filtered, sorted tasks and how many match in all (GET /a/tasks and GET /a/tasks/count). */
export async function loadPage(query: string, page: number): Promise<{ tasks: Task[]; total: number; page: number }> {
  const sep = query ? `${query}&` : "";
  const [tasks, count] = await Promise.all([
    api<Task[]>("GET", `/a/tasks?${sep}page=${page}&size=${PAGE}`),
    api<{ count: number }>("GET", `/a/tasks/count?${query}`),
  ]);
  return { tasks, total: count.count, page };
}

/** Claims or unclaims, then refreshes the list; the server decides who may. */
export async function claimAction(task: Task, action: "claim" | "unclaim"): Promise<void> {
  await api("POST", `/a/tasks/${task.id}/${action}`);
}

/** Waits `ms` after the last change of `value` (typing in the search) before handing it on. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value]);
  return settled;
}

/**
 * The inbox: filters (show, process, group, assignee, due), sort, search by name or business key and by variable, all
 * on the server one page at a time, with saved filters and their counts; claim and unclaim in the row.
 */
export function TasksPage() {
  const [filter, setFilterNow] = useState<TaskFilter>(EMPTY_FILTER);
  const [page, setPage] = useState(0);
  const { error, run } = useAction();
  const [flash] = useState(takeFlash);
  const choices = useLoad(loadChoices);
  const settled = useSettled(filter, 250);
  // The due window is taken at the moment the filter settles: a query made anew on each render would change with the
  // clock and load again without end.
  const query = useMemo(() => taskQuery(settled, new Date()), [settled]);
  const tasks = useLoad(() => loadPage(query, page), [query, page]);
  // The figures of the three "Show" choices, read again after a claim or unclaim (which moves a task between them).
  const shows = useLoad(loadShowCounts);
  const setFilter = (f: TaskFilter) => {
    setFilterNow(f);
    setPage(0);
  };
  const me = session()?.user.id;
  const total = tasks.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE));
  // The figure says the page whose rows are shown (the next one may still be loading).
  const shownPage = tasks.data?.page ?? page;
  const shown = tasks.data?.tasks ?? [];
  const names = new Map((choices.data?.processes ?? []).map((p) => [p.key, p.name]));
  const act = (task: Task, action: "claim" | "unclaim") =>
    run(() =>
      claimAction(task, action).then(() => {
        tasks.reload();
        shows.reload();
      }),
    );
  return html`<section>
    ${flash ? html`<div class="notice" role="status">${flash}</div>` : null}
    <h1>${t("Tasks")}</h1>
    <${FilterBar} filter=${filter} choices=${choices.data ?? { processes: [], groups: [], members: [] }} shows=${shows.data}
      onChange=${setFilter} />
    <${SavedFilters} filter=${filter} onApply=${setFilter} />
    ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
    ${!tasks.data || tasks.error ? html`<${Pending} error=${tasks.error} />` : null}
    ${tasks.data && shown.length === 0 ? html`<p>${t("No tasks.")}</p>` : null}
    ${
      tasks.data
        ? html`<p class="muted" aria-live="polite">${plural(total, "{n} task", "{n} tasks")}${
            pages > 1 ? ` · ${t("page {page} of {pages}", { page: shownPage + 1, pages })}` : ""
          }</p>`
        : null
    }
    <ul class="task-list" aria-label=${t("Tasks")}>
      ${shown.map(
        (task) => html`<li class="task-row" key=${task.id}>
          <a href=${`#/tasks/${task.id}`}><strong>${task.name}</strong></a>
          <span class="muted">${names.get(task.definitionKey) ?? task.definitionKey}${task.businessKey ? ` · ${task.businessKey}` : ""}</span>
          <span class="muted">${when(task.created)} · <${Who} id=${task.assignee} person=${task.assigneeUser} />${
            task.dueDate ? ` · ${t("due {date}", { date: when(task.dueDate) })}` : ""
          }${task.priority !== 50 ? ` · ${t("priority {n}", { n: task.priority })}` : ""}</span>
          ${
            task.assignee === null
              ? html`<button type="button" onClick=${() => act(task, "claim")} aria-label=${t("Claim {task}", { task: task.name })}>${t("Claim")}</button>`
              : task.assignee === me
                ? html`<button type="button" onClick=${() => act(task, "unclaim")} aria-label=${t("Unclaim {task}", { task: task.name })}>${t("Unclaim")}</button>`
                : null
          }
        </li>`,
      )}
    </ul>
    ${
      pages > 1
        ? html`<nav class="pager" aria-label=${t("Pages")}>
            <button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>${t("Previous page")}</button>
            <button type="button" disabled=${page + 1 >= pages} onClick=${() => setPage(page + 1)}>${t("Next page")}</button>
          </nav>`
        : null
    }
  </section>`;
}
