import { useState } from "preact/hooks";
import { api, apiText, hasRole } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { type RoleUse, usesOfRole } from "./role-usage";
import { plural, t } from "../../i18n";

interface Member {
  userId: string;
  email: string;
  firstName: string;
  lastName: string | null;
}
interface Role {
  id: string;
  processKey: string | null;
  key: string;
  name: string;
  members: Member[];
}
interface Definition {
  key: string;
  name: string;
  type: string;
  definitionId: string;
}
interface TenantMember extends Member {
  active: boolean;
}

const enc = encodeURIComponent;
const nameOf = (m: Member) => [m.firstName, m.lastName].filter(Boolean).join(" ") || m.email;

/** The roles, the BPMN processes, each process's newest diagram (for the uses), and the members an Admin may pick. */
async function loadAll() {
  const [roles, definitions] = await Promise.all([
    api<Role[]>("GET", "/a/process-roles"),
    api<Definition[]>("GET", "/a/definitions"),
  ]);
  const bpmn = definitions.filter((d) => d.type === "BPMN");
  const xmls = await Promise.all(
    bpmn.map((d) => apiText(`/a/definitions/${enc(d.key)}/versions/${enc(d.definitionId)}/xml`).catch(() => "")),
  );
  const diagrams = new Map(bpmn.map((d, i) => [d.key, xmls[i]]));
  // The member directory is an Admin's (GET /a/members); a Modeler adds a member by user id.
  const members = hasRole("ADMIN") ? await api<TenantMember[]>("GET", "/a/members").catch(() => null) : null;
  return { roles, definitions: bpmn, diagrams, members: members?.filter((m) => m.active) ?? null };
}

function AddMember({ role, members, onDone }: { role: Role; members: TenantMember[] | null; onDone(): void }) {
  const [userId, setUserId] = useState("");
  const { error, run } = useAction();
  const id = `add-${role.id}`;
  const add = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await api("POST", `/a/process-roles/${role.id}/members`, { userId: userId.trim() });
      setUserId("");
      onDone();
    });
  };
  const candidates = members?.filter((m) => !role.members.some((x) => x.userId === m.userId));
  return html`<form class="inline add-member" onSubmit=${add}>
    <${Alert} error=${error} />
    <label for=${id}>${t("Add a member to {role}", { role: role.name })}</label>
    ${
      candidates
        ? html`<select id=${id} required value=${userId} onChange=${(e: Event) => setUserId(valueOf(e))}>
            <option value="">${t("Choose a person…")}</option>
            ${candidates.map((m) => html`<option value=${m.userId} title=${m.email}>${nameOf(m)} (${m.email})</option>`)}
          </select>`
        : html`<input id=${id} required placeholder=${t("User id")} value=${userId} onInput=${(e: Event) => setUserId(valueOf(e))} />`
    }
    <button type="submit">${t("Add")}</button>
  </form>`;
}

function Uses({ uses }: { uses: RoleUse[] }) {
  if (!uses.length) return html`<span class="muted">${t("No user task offers work to this role yet.")}</span>`;
  return html`<ul class="plain">${uses.map(
    (u) =>
      html`<li><a href=${`#/modeler/definitions/${enc(u.processKey)}`}>${u.processKey}</a>: ${u.elementIds.join(", ")}</li>`,
  )}</ul>`;
}

function NewRole({ definitions, onDone }: { definitions: Definition[]; onDone(): void }) {
  const [processKey, setProcessKey] = useState("");
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await api("POST", "/a/process-roles", { processKey: processKey || null, key: key.trim(), name: name.trim() });
      setKey("");
      setName("");
      onDone();
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-role">
    <h2 id="new-role">${t("New role")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="r-process">${t("Process")}</label>
        <select id="r-process" value=${processKey} onChange=${(e: Event) => setProcessKey(valueOf(e))}>
          <option value="">${t("Every process (tenant-wide)")}</option>
          ${definitions.map((d) => html`<option value=${d.key}>${d.name || d.key}</option>`)}
        </select></div>
      <div class="field"><label for="r-key">${t("Key (what a user task's candidate groups name)")}</label>
        <input id="r-key" required pattern="[A-Za-z0-9_.:\\-]{1,200}" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
      <div class="field"><label for="r-name">${t("Name")}</label>
        <input id="r-name" required maxLength="200" value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
    </div>
    <button type="submit" class="primary">${t("Create role")}</button>
  </form>`;
}

/**
 * Modeler and Admin: the process roles (GET /a/process-roles), who holds each, which processes' user tasks offer work
 * to it (read from their newest diagrams), with create, delete, add and remove member (each removal confirmed).
 */
export function ProcessRolesPage() {
  const all = useLoad(loadAll);
  const { error, run } = useAction();
  const d = all.data;
  const remove = (role: Role, m: Member) => {
    if (
      !confirm(
        t("Remove {person} from the role “{role}”? Tasks offered to it no longer reach them.", {
          person: nameOf(m),
          role: role.name,
        }),
      )
    )
      return;
    return run(() => api("DELETE", `/a/process-roles/${role.id}/members/${enc(m.userId)}`).then(all.reload));
  };
  const drop = (role: Role) => {
    if (
      !confirm(
        t("Delete the role “{role}” and its {assignments}?", {
          role: role.name,
          assignments: plural(role.members.length, "{n} assignment", "{n} assignments"),
        }),
      )
    )
      return;
    return run(() => api("DELETE", `/a/process-roles/${role.id}`).then(all.reload));
  };
  return html`<section>
    <p><a href="#/modeler">← ${t("Modeler")}</a></p>
    <h1>${t("Process roles")}</h1>
    <p class="hint">${t("A user task offered to candidate group {group} reaches the members of the role with key {group} of its process, or of a tenant-wide role with that key.", { group: "approvers" })}</p>
    ${!d ? html`<${Pending} error=${all.error} />` : html`<${NewRole} definitions=${d.definitions} onDone=${all.reload} />`}
    <${Alert} error=${error} />
    ${
      d && !d.roles.length
        ? html`<p class="empty">${t("No process roles yet. Create one above, then add the people who do that work.")}</p>`
        : null
    }
    ${(d?.roles ?? []).map(
      (r) => html`<article class="role card" data-role=${r.key} aria-labelledby=${`role-${r.id}`}>
        <h2 id=${`role-${r.id}`}>${r.name} <code>${r.key}</code>
          <small>${r.processKey ? t("process {key}", { key: r.processKey }) : t("every process")}</small></h2>
        <h3>${t("Members")}</h3>
        ${
          r.members.length
            ? html`<ul class="plain">${r.members.map(
                (m) => html`<li><span title=${m.email}>${nameOf(m)}</span>
                  <button type="button" class="link" aria-label=${t("Remove {person} from {role}", { person: nameOf(m), role: r.name })}
                    onClick=${() => remove(r, m)}>${t("Remove")}</button></li>`,
              )}</ul>`
            : html`<p class="muted">${t("Nobody holds this role: tasks offered to it reach no one.")}</p>`
        }
        <${AddMember} role=${r} members=${d?.members ?? null} onDone=${all.reload} />
        <h3>${t("Used by")}</h3>
        <${Uses} uses=${usesOfRole(r.key, r.processKey, d?.diagrams ?? new Map())} />
        <p><button type="button" onClick=${() => drop(r)} aria-label=${t("Delete the role {role}", { role: r.name })}>${t("Delete role")}</button></p>
      </article>`,
    )}
  </section>`;
}
