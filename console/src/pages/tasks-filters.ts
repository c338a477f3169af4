import { useEffect, useState } from "preact/hooks";
import { api, hasRole, session } from "../api";
import { valueOf } from "../controls";
import { html } from "../html";
import { t } from "../i18n";
import {
  EMPTY_FILTER,
  readSaved,
  type SavedFilter,
  type Show,
  savedKey,
  type TaskFilter,
  taskQuery,
  withSaved,
} from "./tasks-order";

interface Choices {
  processes: { key: string; name: string }[];
  groups: { key: string; name: string }[];
  members: { userId: string; name: string }[];
}

/**
 * What the filter selects offer: processes by name (GET /a/definitions), the process roles tasks are offered to (GET
 * /a/process-roles, one entry per key), and for an Admin the company's members (GET /a/members, an Admin route) to
 * filter by assignee. A list that cannot be read leaves its select with "any" only.
 */
export async function loadChoices(): Promise<Choices> {
  const soft = <T>(p: Promise<T>, none: T) => p.catch(() => none);
  const [defs, roles, members] = await Promise.all([
    soft(api<{ key: string; name: string | null }[]>("GET", "/a/definitions"), []),
    soft(api<{ key: string; name: string }[]>("GET", "/a/process-roles"), []),
    hasRole("ADMIN")
      ? soft(api<{ userId: string; email: string; firstName?: string; lastName?: string }[]>("GET", "/a/members"), [])
      : Promise.resolve([]),
  ]);
  const byKey = new Map(roles.map((r) => [r.key, r.name || r.key]));
  return {
    processes: defs.map((d) => ({ key: d.key, name: d.name || d.key })).sort((a, b) => a.name.localeCompare(b.name)),
    groups: [...byKey].map(([key, name]) => ({ key, name })).sort((a, b) => a.name.localeCompare(b.name)),
    members: members.map((m) => ({
      userId: m.userId,
      name: [m.firstName, m.lastName].filter(Boolean).join(" ") || m.email,
    })),
  };
}

/** How many open tasks each "Show" choice holds, alone (GET /a/tasks/count): all I see, mine, open to claim. */
export async function loadShowCounts(): Promise<Record<Show, number>> {
  const count = (show: Show) =>
    api<{ count: number }>("GET", `/a/tasks/count?${taskQuery({ ...EMPTY_FILTER, show }, new Date())}`).then(
      (r) => r.count,
    );
  const [all, mine, candidate] = await Promise.all([count("all"), count("mine"), count("candidate")]);
  return { all, mine, candidate };
}

/** The filter bar: each change goes to the server (search and variable as typed, a moment after the last key). */
export function FilterBar({
  filter,
  choices,
  shows,
  onChange,
}: {
  filter: TaskFilter;
  choices: Choices;
  /** How many tasks each "Show" choice holds, when known. */
  shows?: Record<Show, number>;
  onChange(f: TaskFilter): void;
}) {
  const set = (k: keyof TaskFilter) => (e: Event) => onChange({ ...filter, [k]: valueOf(e) });
  const opt = (value: string, label: string) => html`<option value=${value}>${label}</option>`;
  const show = (value: Show, label: string) => opt(value, shows ? `${label} (${shows[value]})` : label);
  // Each label stays with its control when the bar wraps (a phone).
  const field = (id: string, label: string, control: unknown) =>
    html`<span class="filter-field"><label for=${id}>${label}</label>${control}</span>`;
  return html`<div class="filters" role="group" aria-label=${t("Filters")}>
    ${field(
      "flt",
      t("Show"),
      html`<select id="flt" value=${filter.show} onChange=${set("show")}>
        ${show("all", t("All I can see"))}${show("mine", t("Assigned to me"))}${show("candidate", t("Open to claim"))}
      </select>`,
    )}
    ${field(
      "proc",
      t("Process"),
      html`<select id="proc" value=${filter.processKey} onChange=${set("processKey")}>
        ${opt("", t("All processes"))}${choices.processes.map((p) => opt(p.key, p.name))}
      </select>`,
    )}
    ${field(
      "grp",
      t("Group"),
      html`<select id="grp" value=${filter.candidateGroup} onChange=${set("candidateGroup")}>
        ${opt("", t("Any group"))}${choices.groups.map((g) => opt(g.key, g.name))}
      </select>`,
    )}
    ${
      choices.members.length
        ? field(
            "asg",
            t("Assignee"),
            html`<select id="asg" value=${filter.assignee} onChange=${set("assignee")}>
              ${opt("", t("Anyone"))}${choices.members.map((m) => opt(m.userId, m.name))}
            </select>`,
          )
        : null
    }
    ${field(
      "due",
      t("Due"),
      html`<select id="due" value=${filter.due} onChange=${set("due")}>
        ${opt("", t("Any time"))}${opt("overdue", t("Overdue"))}${opt("today", t("Today"))}${opt("week", t("This week"))}
      </select>`,
    )}
    ${field(
      "sort",
      t("Sort by"),
      html`<select id="sort" value=${filter.sort} onChange=${set("sort")}>
        ${opt("created", t("Newest"))}${opt("due", t("Due soonest"))}${opt("priority", t("Highest priority"))}${opt("name", t("Name"))}
      </select>`,
    )}
    ${field(
      "task-search",
      t("Search"),
      html`<input id="task-search" type="search" placeholder=${t("Name or business key")} value=${filter.search}
        onInput=${set("search")} />`,
    )}
    ${field("var-name", t("Variable"), html`<input id="var-name" placeholder=${t("name")} value=${filter.varName} onInput=${set("varName")} />`)}
    ${field("var-value", t("equals"), html`<input id="var-value" placeholder=${t("value")} value=${filter.varValue} onInput=${set("varValue")} />`)}
  </div>`;
}

/** The signed-in user's saved filters in this company, kept in the browser (docs/decisions.md). */
function useSaved(): [SavedFilter[], (next: SavedFilter[]) => void] {
  const s = session();
  const key = savedKey(s?.tenant ?? "", s?.user.id ?? "");
  const [list, setList] = useState(() => readSaved(localStorage.getItem(key)));
  const save = (next: SavedFilter[]) => {
    localStorage.setItem(key, JSON.stringify(next));
    setList(next);
  };
  return [list, save];
}

/**
 * Saved filters with the number of tasks each finds now (GET /a/tasks/count), applied with one click; the current
 * filter is saved under a name (the same name replaces it) and one is removed after a confirmation.
 */
export function SavedFilters({ filter, onApply }: { filter: TaskFilter; onApply(f: TaskFilter): void }) {
  const [list, save] = useSaved();
  const [name, setName] = useState("");
  const [counts, setCounts] = useState<Record<string, number | string>>({});
  useEffect(() => {
    const now = new Date();
    let gone = false;
    Promise.all(
      list.map((s) =>
        api<{ count: number }>("GET", `/a/tasks/count?${taskQuery(s.filter, now)}`).then(
          (r) => [s.name, r.count] as const,
          () => [s.name, "?"] as const,
        ),
      ),
    ).then((all) => gone || setCounts(Object.fromEntries(all)));
    return () => {
      gone = true;
    };
  }, [list]);
  const add = (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return;
    save(withSaved(list, name, filter));
    setName("");
  };
  const remove = (n: string) => {
    if (confirm(t("Remove the saved filter “{name}”?", { name: n }))) save(list.filter((s) => s.name !== n));
  };
  return html`<div class="saved-filters">
    ${
      list.length
        ? html`<ul class="chips" aria-label=${t("Saved filters")}>${list.map(
            (s) => html`<li key=${s.name}>
              <button type="button" class="chip" onClick=${() => onApply(s.filter)}>
                ${s.name} <span class="count" aria-label=${t("tasks")}>${counts[s.name] ?? "…"}</span></button>
              <button type="button" class="link" aria-label=${t("Remove saved filter {name}", { name: s.name })}
                onClick=${() => remove(s.name)}>×</button>
            </li>`,
          )}</ul>`
        : null
    }
    <form class="inline" onSubmit=${add}>
      <label for="save-name">${t("Save this filter as")}</label>
      <input id="save-name" value=${name} maxLength=${60} onInput=${(e: Event) => setName(valueOf(e))} />
      <button type="submit" disabled=${!name.trim()}>${t("Save filter")}</button>
    </form>
  </div>`;
}
