import { api, hasRole, type Session, session, setSession } from "../api";
import { html } from "../html";
import { t } from "../i18n";
import { go } from "../router";
import { Pending, useAction, useLoad } from "../use-load";

/** The companies of the person (GET /auth/me/tenants); choosing one calls POST /auth/select-tenant. */
export function TenantPicker() {
  const tenants = useLoad(() => api<{ id: string; slug: string; name: string }[]>("GET", "/auth/me/tenants"));
  const { error, run } = useAction();
  const pick = (slug: string) =>
    run(async () => {
      const picked = await api<Session>("POST", "/auth/select-tenant", { tenantSlug: slug });
      setSession({ ...picked, tenants: picked.tenants ?? session()?.tenants ?? [], tenant: slug });
      go("/tasks");
    });
  if (!tenants.data) return html`<${Pending} error=${tenants.error} />`;
  return html`<section class="narrow">
    <h1>${t("Choose a company")}</h1>
    ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
    ${tenants.data.length === 0 ? html`<p>${t("You are not a member of any company yet.")}</p>` : null}
    <ul class="cards">
      ${tenants.data.map(
        (c) => html`<li><button type="button" class="card" onClick=${() => pick(c.slug)}>
          <strong>${c.name}</strong> <span class="muted">${c.slug}</span></button></li>`,
      )}
    </ul>
    ${hasRole("SUPER_ADMIN") ? html`<p><a href="#/admin/tenants">${t("Administer tenants")}</a></p>` : null}
  </section>`;
}
