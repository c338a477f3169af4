import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { plural, t } from "../../i18n";

export interface User {
  id: string;
  email: string;
  firstName: string;
  lastName: string | null;
  roles: string[];
  active: boolean;
}
interface Page<T> {
  content: T[];
  totalElements: number;
}

/** Users matching `search` (e-mail or name), by e-mail; the API's page envelope. */
export const findUsers = (search: string, size = 50) =>
  api<Page<User>>("GET", `/admin/users?size=${size}&sort=email,asc&search=${encodeURIComponent(search)}`);

const EMPTY = { email: "", firstName: "", lastName: "", password: "", superAdmin: false };

function NewUser({ onCreated }: { onCreated(): void }) {
  const [f, setF] = useState(EMPTY);
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const set = (k: keyof typeof EMPTY) => (e: Event) =>
    setF({ ...f, [k]: k === "superAdmin" ? checkedOf(e) : valueOf(e) });
  const create = (e: Event) => {
    e.preventDefault();
    setDone(null);
    return run(async () => {
      const u = await api<User>("POST", "/admin/users", {
        email: f.email.trim(),
        firstName: f.firstName.trim(),
        lastName: f.lastName.trim() || null,
        password: f.password,
        roles: f.superAdmin ? ["SUPER_ADMIN"] : [],
      });
      setF(EMPTY);
      setDone(t("User {email} created.", { email: u.email }));
      onCreated();
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-u">
    <h2 id="new-u">${t("New user")}</h2>
    <${Alert} error=${error} />
    ${done ? html`<div class="notice" role="status">${done}</div>` : null}
    <div class="row-fields">
      <div class="field"><label for="u-email">${t("E-mail")}</label>
        <input id="u-email" type="email" required autocomplete="off" value=${f.email} onInput=${set("email")} /></div>
      <div class="field"><label for="u-first">${t("First name")}</label>
        <input id="u-first" required value=${f.firstName} onInput=${set("firstName")} /></div>
      <div class="field"><label for="u-last">${t("Last name")}</label>
        <input id="u-last" value=${f.lastName} onInput=${set("lastName")} /></div>
      <div class="field"><label for="u-pass">${t("Initial password")}</label>
        <input id="u-pass" type="password" required autocomplete="new-password" value=${f.password} onInput=${set("password")} /></div>
    </div>
    <div class="field field-checkbox"><label for="u-sa">${t("Super administrator (the whole platform)")}</label>
      <input id="u-sa" type="checkbox" checked=${f.superAdmin} onChange=${set("superAdmin")} /></div>
    <button type="submit" class="primary">${t("Create user")}</button>
  </form>`;
}

/** SA: the platform's users (GET /admin/users), creating one, deactivating (DELETE) and reactivating (PUT active). */
export function AdminUsersPage() {
  const [search, setSearch] = useState("");
  const list = useLoad(() => findUsers(search), [search]);
  const { error, run } = useAction();
  const deactivate = (u: User) => {
    if (!confirm(t("Deactivate {email}? They can no longer sign in (reactivating restores them).", { email: u.email })))
      return;
    return run(() => api("DELETE", `/admin/users/${u.id}`).then(list.reload));
  };
  const reactivate = (u: User) => run(() => api("PUT", `/admin/users/${u.id}`, { active: true }).then(list.reload));
  return html`<section>
    <h1>${t("Users")}</h1>
    <${NewUser} onCreated=${list.reload} />
    <div class="filters" role="search">
      <label for="u-search">${t("Search users")}</label>
      <input id="u-search" type="search" value=${search} onInput=${(e: Event) => setSearch(valueOf(e))} />
    </div>
    <${Alert} error=${error} />
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.content.length ? html`<p class="empty">${t("Nobody matches “{search}”.", { search })}</p>` : null}
    <table class="grid"><caption>${list.data ? plural(list.data.totalElements, "{n} user", "{n} users") : t("Users")}</caption>
      <thead><tr><th>${t("E-mail")}</th><th>${t("Name")}</th><th>${t("Global role")}</th><th>${t("Status")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${(list.data?.content ?? []).map(
        (u) => html`<tr data-email=${u.email}><td>${u.email}</td><td>${u.firstName} ${u.lastName ?? ""}</td>
          <td>${u.roles.join(", ") || "—"}</td>
          <td><span class=${`status ${u.active ? "ACTIVE" : "INACTIVE"}`}>${u.active ? t("active") : t("deactivated")}</span></td>
          <td>${
            u.active
              ? html`<button type="button" aria-label=${t("Deactivate {email}", { email: u.email })} onClick=${() => deactivate(u)}>${t("Deactivate")}</button>`
              : html`<button type="button" aria-label=${t("Reactivate {name}", { name: u.email })} onClick=${() => reactivate(u)}>${t("Reactivate")}</button>`
          }</td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
