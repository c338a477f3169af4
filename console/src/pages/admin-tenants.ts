import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { html } from "../html";
import { Pending, useAction, useLoad } from "../use-load";
import { t } from "../i18n";

interface Tenant {
  id: string;
  slug: string;
  name: string;
  status: string;
  errorMessage?: string;
}

/** A tenant's lifecycle state as shown (the API's value stays the CSS class). */
const STATUS: Record<string, () => string> = {
  CREATING: () => t("CREATING"),
  ACTIVE: () => t("ACTIVE"),
  SUSPENDED: () => t("SUSPENDED"),
  DEACTIVATED: () => t("DEACTIVATED"),
  DROPPED: () => t("DROPPED"),
  FAILED: () => t("FAILED"),
};

/** How often the list is read again while a tenant is still being provisioned. */
const POLL_MS = 1000;

/** SA: the tenants (GET /admin/tenants), creating one and watching it go from CREATING to ACTIVE, suspend, reactivate. */
export function AdminTenantsPage() {
  const list = useLoad(() => api<{ content: Tenant[] }>("GET", "/admin/tenants?size=100").then((p) => p.content));
  const [slug, setSlug] = useState("");
  const [name, setName] = useState("");
  const { error, run } = useAction();
  const creating = (list.data ?? []).some((c) => c.status === "CREATING");
  useEffect(() => {
    if (!creating) return;
    const timer = setTimeout(list.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [list.data]);
  const create = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await api("POST", "/admin/tenants", { slug: slug.trim(), name: name.trim() });
      setSlug("");
      setName("");
      list.reload();
    });
  };
  const lifecycle = (c: Tenant, action: "suspend" | "reactivate") => {
    if (
      action === "suspend" &&
      !confirm(t("Suspend {name}? Its people can no longer sign in to it until it is reactivated.", { name: c.name }))
    )
      return;
    return run(() => api("PATCH", `/admin/tenants/${c.id}/${action}`).then(list.reload));
  };
  return html`<section>
    <h1>${t("Tenants")}</h1>
    <form class="inline" onSubmit=${create} aria-labelledby="new-t">
      <h2 id="new-t">${t("New tenant")}</h2>
      ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
      <div class="field"><label for="t-slug">${t("Slug")}</label>
        <input id="t-slug" required pattern="[a-z0-9\\-]+" value=${slug} onInput=${(e: Event) => setSlug((e.currentTarget as HTMLInputElement).value)} /></div>
      <div class="field"><label for="t-name">${t("Name")}</label>
        <input id="t-name" required value=${name} onInput=${(e: Event) => setName((e.currentTarget as HTMLInputElement).value)} /></div>
      <button type="submit" class="primary">${t("Create")}</button>
    </form>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.length ? html`<p class="empty">${t("No tenants yet. Create the first company above; it becomes ACTIVE once provisioned.")}</p>` : null}
    <table class="grid"><caption>${t("All tenants")}</caption>
      <thead><tr><th>${t("Slug")}</th><th>${t("Name")}</th><th>${t("Status")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody aria-live="polite">${(list.data ?? []).map(
        (c) => html`<tr data-slug=${c.slug}><td>${c.slug}</td><td>${c.name}</td>
          <td><span class=${`status ${c.status}`}>${STATUS[c.status]?.() ?? c.status}</span>${c.errorMessage ? html` <small>${c.errorMessage}</small>` : null}</td>
          <td>${
            c.status === "ACTIVE"
              ? html`<button type="button" aria-label=${t("Suspend {slug}", { slug: c.slug })} onClick=${() => lifecycle(c, "suspend")}>${t("Suspend")}</button>`
              : c.status === "SUSPENDED"
                ? html`<button type="button" aria-label=${t("Reactivate {name}", { name: c.slug })} onClick=${() => lifecycle(c, "reactivate")}>${t("Reactivate")}</button>`
                : null
          } <a href=${`#/admin/tenants/${c.id}/members`} aria-label=${t("Members of {slug}", { slug: c.slug })}>${t("Members")}</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
