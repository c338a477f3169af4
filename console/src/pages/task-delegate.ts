import { useState } from "preact/hooks";
import { api, hasRole, session } from "../api";
import { html } from "../html";
import { t } from "../i18n";
import { go, setFlash } from "../router";
import { useAction, useLoad } from "../use-load";

interface Person {
  userId: string;
  label: string;
}
interface RoleMember {
  userId: string;
  email: string;
  firstName?: string | null;
}

const labelOf = (m: { email: string; firstName?: string | null; lastName?: string | null }) =>
  m.firstName ? `${[m.firstName, m.lastName].filter(Boolean).join(" ")} (${m.email})` : m.email;

/**
 * Whom the task can be handed to: an Admin reads the tenant's members (GET /a/members); anyone else the members of
 * the process's roles (GET /a/process-roles?processKey=), the people who work in this process. The caller and the
 * current assignee are left out. An empty list (or one that could not be read) falls back to typing a user id.
 */
async function people(processKey: string, assignee: string | null): Promise<Person[]> {
  const me = session()?.user.id;
  const found = new Map<string, string>();
  if (hasRole("ADMIN")) {
    const members = await api<(RoleMember & { active: boolean; lastName?: string | null })[]>("GET", "/a/members");
    for (const m of members) if (m.active) found.set(m.userId, labelOf(m));
  } else {
    const roles = await api<{ members: RoleMember[] }[]>(
      "GET",
      `/a/process-roles?processKey=${encodeURIComponent(processKey)}`,
    );
    for (const r of roles) for (const m of r.members) found.set(m.userId, labelOf(m));
  }
  return [...found]
    .filter(([id]) => id !== me && id !== assignee)
    .map(([userId, label]) => ({ userId, label }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Hands the task to another member (POST /a/tasks/{id}/delegate {userId}); the assignee or a Manager may. */
export function DelegateForm({
  task,
}: {
  task: { id: string; name: string; definitionKey: string; assignee: string | null };
}) {
  const list = useLoad(() => people(task.definitionKey, task.assignee).catch(() => []), [task.id]);
  const [target, setTarget] = useState("");
  const { error, run } = useAction();
  const options = list.data ?? [];
  const submit = (e: Event) => {
    e.preventDefault();
    const userId = target.trim();
    if (!userId) return;
    return run(async () => {
      await api("POST", `/a/tasks/${task.id}/delegate`, { userId });
      const name = options.find((p) => p.userId === userId)?.label ?? userId;
      setFlash(t("Task “{task}” delegated to {name}.", { task: task.name, name }));
      go("/tasks");
    });
  };
  return html`<form class="delegate inline" onSubmit=${submit} aria-labelledby="delegate-h">
    <h2 id="delegate-h">${t("Delegate")}</h2>
    ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
    <div class="field">
      <label for="delegate-to">${t("Delegate to")}</label>
      ${
        // While the list loads, a disabled select: a text field that turned into a list under the cursor would lose
        // what was typed (and a test, or a fast hand, would type into the wrong control).
        list.data === undefined
          ? html`<select id="delegate-to" disabled aria-busy="true"><option>${t("Loading…")}</option></select>`
          : options.length
            ? html`<select id="delegate-to" value=${target} onChange=${(e: Event) => setTarget((e.currentTarget as HTMLSelectElement).value)}>
              <option value="">—</option>
              ${options.map((p) => html`<option value=${p.userId}>${p.label}</option>`)}
            </select>`
            : html`<input id="delegate-to" value=${target} placeholder=${t("User id")}
              onInput=${(e: Event) => setTarget((e.currentTarget as HTMLInputElement).value)} />`
      }
    </div>
    <button type="submit" disabled=${target.trim() === ""}>${t("Delegate")}</button>
  </form>`;
}
