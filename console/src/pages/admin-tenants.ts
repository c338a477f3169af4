import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { html } from "../html";
import { Pending, useAction, useLoad } from "../use-load";

interface Tenant {
  id: string;
  slug: string;
  name: string;
  status: string;
  errorMessage?: string;
}

/** How often the list is read again while a tenant is still being provisioned. */
const POLL_MS = 1000;

/** SA: the tenants (GET /admin/tenants), creating one and watching it go from CREATING to ACTIVE, suspend, reactivate. */
export function AdminTenantsPage() {
  const list = useLoad(() => api<{ content: Tenant[] }>("GET", "/admin/tenants?size=100").then((p) => p.content));
  const [slug, setSlug] = useState("");
  const [name, setName] = useState("");
  const { error, run } = useAction();
  const creating = (list.data ?? []).some((t) => t.status === "CREATING");
  useEffect(() => {
    if (!creating) return;
    const t = setTimeout(list.reload, POLL_MS);
    return () => clearTimeout(t);
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
  const lifecycle = (t: Tenant, action: "suspend" | "reactivate") => {
    if (
      action === "suspend" &&
      !confirm(`Suspend ${t.name}? Its people can no longer sign in to it until it is reactivated.`)
    )
      return;
    return run(() => api("PATCH", `/admin/tenants/${t.id}/${action}`).then(list.reload));
  };
  return html`<section>
    <h1>Tenants</h1>
    <form class="inline" onSubmit=${create} aria-labelledby="new-t">
      <h2 id="new-t">New tenant</h2>
      ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
      <div class="field"><label for="t-slug">Slug</label>
        <input id="t-slug" required pattern="[a-z0-9\\-]+" value=${slug} onInput=${(e: Event) => setSlug((e.currentTarget as HTMLInputElement).value)} /></div>
      <div class="field"><label for="t-name">Name</label>
        <input id="t-name" required value=${name} onInput=${(e: Event) => setName((e.currentTarget as HTMLInputElement).value)} /></div>
      <button type="submit" class="primary">Create</button>
    </form>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.length ? html`<p class="empty">No tenants yet. Create the first company above; it becomes ACTIVE once provisioned.</p>` : null}
    <table class="grid"><caption>All tenants</caption>
      <thead><tr><th>Slug</th><th>Name</th><th>Status</th><th>Actions</th></tr></thead>
      <tbody aria-live="polite">${(list.data ?? []).map(
        (t) => html`<tr data-slug=${t.slug}><td>${t.slug}</td><td>${t.name}</td>
          <td><span class=${`status ${t.status}`}>${t.status}</span>${t.errorMessage ? html` <small>${t.errorMessage}</small>` : null}</td>
          <td>${
            t.status === "ACTIVE"
              ? html`<button type="button" aria-label=${`Suspend ${t.slug}`} onClick=${() => lifecycle(t, "suspend")}>Suspend</button>`
              : t.status === "SUSPENDED"
                ? html`<button type="button" aria-label=${`Reactivate ${t.slug}`} onClick=${() => lifecycle(t, "reactivate")}>Reactivate</button>`
                : null
          } <a href=${`#/admin/tenants/${t.id}/members`} aria-label=${`Members of ${t.slug}`}>Members</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
