import { api } from "../../api";
import { html } from "../../html";
import { Pending, useLoad } from "../../use-load";
import { t } from "../../i18n";

interface Definition {
  key: string;
  name: string;
  type: string;
  latestVersion: number;
  publishedVersion: number | null;
  enabled: boolean;
}
interface Role {
  id: string;
  processKey: string | null;
  key: string;
  name: string;
  members: { userId: string; email: string; firstName: string; lastName: string | null }[];
}

const nameOf = (m: Role["members"][number]) => [m.firstName, m.lastName].filter(Boolean).join(" ") || m.email;

/**
 * SA: what a tenant holds, read without entering it (GET /admin/tenants/{id}/definitions and .../process-roles): its
 * processes with their versions, and its process roles with who holds them, by name.
 */
export function TenantContent({ tenantId }: { tenantId: string }) {
  const defs = useLoad(() => api<Definition[]>("GET", `/admin/tenants/${tenantId}/definitions`), [tenantId]);
  const roles = useLoad(() => api<Role[]>("GET", `/admin/tenants/${tenantId}/process-roles`), [tenantId]);
  return html`<section aria-labelledby="tc-defs">
      <h2 id="tc-defs">${t("Processes")}</h2>
      ${!defs.data ? html`<${Pending} error=${defs.error} />` : null}
      ${defs.data && !defs.data.length ? html`<p class="empty">${t("No processes deployed in this company yet.")}</p>` : null}
      ${
        defs.data?.length
          ? html`<table class="grid"><caption>${t("Processes of the company")}</caption>
          <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Type")}</th><th>${t("Latest")}</th><th>${t("Published")}</th><th>${t("Catalog")}</th></tr></thead>
          <tbody>${defs.data.map(
            (
              d,
            ) => html`<tr key=${d.key} data-key=${d.key}><td>${d.name}</td><td><code>${d.key}</code></td><td>${d.type}</td>
              <td>v${d.latestVersion}</td><td>${d.publishedVersion ? `v${d.publishedVersion}` : t("none")}</td>
              <td>${d.enabled ? t("offered") : t("hidden")}</td></tr>`,
          )}</tbody></table>`
          : null
      }
    </section>
    <section aria-labelledby="tc-roles">
      <h2 id="tc-roles">${t("Process roles")}</h2>
      ${!roles.data ? html`<${Pending} error=${roles.error} />` : null}
      ${roles.data && !roles.data.length ? html`<p class="empty">${t("No process roles in this company yet (its Modelers create them).")}</p>` : null}
      ${
        roles.data?.length
          ? html`<table class="grid"><caption>${t("Process roles of the company")}</caption>
          <thead><tr><th>${t("Role")}</th><th>${t("Key")}</th><th>${t("Process")}</th><th>${t("Held by")}</th></tr></thead>
          <tbody>${roles.data.map(
            (r) => html`<tr key=${r.id} data-role=${r.key}><td>${r.name}</td><td><code>${r.key}</code></td>
              <td>${r.processKey ? html`<code>${r.processKey}</code>` : t("every process")}</td>
              <td>${
                r.members.length
                  ? r.members.map(
                      (m, i) => html`${i ? ", " : ""}<span class="person" title=${m.email}>${nameOf(m)}</span>`,
                    )
                  : html`<span class="muted">${t("nobody")}</span>`
              }</td></tr>`,
          )}</tbody></table>`
          : null
      }
    </section>`;
}
