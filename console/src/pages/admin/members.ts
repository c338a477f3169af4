import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { TenantContent } from "./tenant-content";
import { findUsers } from "./users";
import { t } from "../../i18n";

const ROLES = ["USER", "MANAGER", "MODELER", "ADMIN"] as const;

interface Member {
  id: string;
  userId: string;
  role: string;
  email: string;
  firstName: string;
  lastName: string | null;
  active: boolean;
}

function RoleSelect({
  id,
  value,
  label,
  onChange,
}: {
  id: string;
  value: string;
  label: string;
  onChange(r: string): void;
}) {
  return html`<select id=${id} aria-label=${label} value=${value} onChange=${(e: Event) => onChange(valueOf(e))}>
    ${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}
  </select>`;
}

/** Adding a member: the person is found by e-mail or name among the platform's users (GET /admin/users?search=). */
function AddMember({ tenantId, members, onAdded }: { tenantId: string; members: Member[]; onAdded(): void }) {
  const [search, setSearch] = useState("");
  const [userId, setUserId] = useState("");
  const [role, setRole] = useState("USER");
  const { error, run } = useAction();
  const found = useLoad(
    () => (search.trim().length < 2 ? Promise.resolve(null) : findUsers(search.trim(), 20)),
    [search],
  );
  const candidates = (found.data?.content ?? []).filter((u) => u.active && !members.some((m) => m.userId === u.id));
  const add = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await api("POST", `/admin/tenants/${tenantId}/members`, { userId, role });
      setSearch("");
      setUserId("");
      onAdded();
    });
  };
  return html`<form class="inline" onSubmit=${add} aria-labelledby="add-m">
    <h2 id="add-m">${t("Add a member")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="m-search">${t("Find a user (e-mail or name)")}</label>
        <input id="m-search" type="search" value=${search} onInput=${(e: Event) => setSearch(valueOf(e))} /></div>
      <div class="field"><label for="m-user">${t("User")}</label>
        <select id="m-user" required value=${userId} onChange=${(e: Event) => setUserId(valueOf(e))}>
          <option value="">${search.trim().length < 2 ? t("Type at least 2 letters") : t("{n} found", { n: candidates.length })}</option>
          ${candidates.map((u) => html`<option value=${u.id}>${u.email} (${u.firstName})</option>`)}
        </select></div>
      <div class="field"><label for="m-role">${t("Role")}</label>
        <${RoleSelect} id="m-role" label=${t("Role")} value=${role} onChange=${setRole} /></div>
    </div>
    <button type="submit" class="primary" disabled=${!userId}>${t("Add member")}</button>
  </form>`;
}

/**
 * SA: the members of one tenant with their roles (GET /admin/tenants/{id}/members), add, change role, remove; then what
 * the tenant holds (its processes and process roles).
 */
export function AdminMembersPage({ tenantId }: { tenantId: string }) {
  const tenant = useLoad(() => api<{ slug: string; name: string }>("GET", `/admin/tenants/${tenantId}`), [tenantId]);
  const list = useLoad(() => api<Member[]>("GET", `/admin/tenants/${tenantId}/members`), [tenantId]);
  const { error, run } = useAction();
  const [done, setDone] = useState<string | null>(null);
  const base = `/admin/tenants/${tenantId}/members`;
  // A declined change redraws the row's select (a new key) so it shows the role the member still has.
  const [declined, setDeclined] = useState(0);
  const changeRole = (m: Member, role: string) => {
    if (
      !confirm(
        t("Change {email} from {from} to {to}? It applies at once, to what they can see and do.", {
          email: m.email,
          from: m.role,
          to: role,
        }),
      )
    )
      return setDeclined(declined + 1);
    return run(async () => {
      setDone(null);
      await api("PATCH", `${base}/${m.id}/role`, { role });
      setDone(t("{email} is now {role}.", { email: m.email, role }));
      list.reload();
    });
  };
  const remove = (m: Member) => {
    if (
      !confirm(
        t("Remove {email} from {company}? They lose access to it at once.", {
          email: m.email,
          company: tenant.data?.name ?? t("this company"),
        }),
      )
    )
      return;
    return run(() => api("DELETE", `${base}/${m.id}`).then(list.reload));
  };
  const members = list.data ?? [];
  return html`<section>
    <p><a href="#/admin/tenants">← ${t("Tenants")}</a></p>
    <h1>${t("Members of {name}", { name: tenant.data?.name ?? t("the tenant") })} <span class="muted">${tenant.data?.slug ?? ""}</span></h1>
    ${list.data ? html`<${AddMember} tenantId=${tenantId} members=${list.data} onAdded=${list.reload} />` : null}
    <${Alert} error=${error} />
    ${done ? html`<div class="notice" role="status">${done}</div>` : null}
    ${!list.data ? html`<${Pending} error=${list.error ?? tenant.error} />` : null}
    ${list.data && !members.length ? html`<p class="empty">${t("No members yet. Find a user above and add them with a role.")}</p>` : null}
    ${
      members.length
        ? html`<table class="grid"><caption>${t("Members and roles")}</caption>
      <thead><tr><th>${t("E-mail")}</th><th>${t("Name")}</th><th>${t("Role")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${members.map(
        (
          m,
        ) => html`<tr key=${m.id} data-email=${m.email}><td>${m.email}${m.active ? "" : html` <small>(${t("deactivated")})</small>`}</td>
          <td>${m.firstName} ${m.lastName ?? ""}</td>
          <td><${RoleSelect} key=${`${m.role}-${declined}`} id=${`role-${m.id}`} label=${t("Role of {email}", { email: m.email })} value=${m.role}
            onChange=${(r: string) => changeRole(m, r)} /></td>
          <td><button type="button" class="danger" aria-label=${t("Remove {email}", { email: m.email })} onClick=${() => remove(m)}>${t("Remove")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
    <${TenantContent} tenantId=${tenantId} />
  </section>`;
}
