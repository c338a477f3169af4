import { api, hasRole } from "../../api";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useLoad } from "../../use-load";

interface Delegate {
  name: string;
  className: string;
  description: string;
  parameters: { name: string; type: string; required: boolean; description: string }[];
}
interface Archive {
  name: string;
  active: boolean;
  delegates: string[];
}

/**
 * The service-task delegates a model may name (GET /a/delegates, Modeler), with their parameters: a reference for
 * modelling, nothing to change here. An Admin also sees the active archives (GET /a/delegates/active).
 */
export function DelegatesPage() {
  const list = useLoad(() => api<Delegate[]>("GET", "/a/delegates"));
  const admin = hasRole("ADMIN");
  const archives = useLoad(() => (admin ? api<Archive[]>("GET", "/a/delegates/active") : Promise.resolve([])));
  const rows = list.data ?? [];
  return html`<section>
    <h1>${t("Delegates")}</h1>
    <p class="hint">${t("Built-in service-task implementations: name one as a service task's delegate expression or class, with these parameters as its fields.")}</p>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("No delegates are loaded.")}</p>` : null}
    ${rows.map(
      (d) => html`<article class="card" data-name=${d.name}>
        <h2>${d.name} <small><code>${d.className}</code></small></h2>
        <p>${d.description}</p>
        ${
          d.parameters.length
            ? html`<table class="grid"><caption>${t("Parameters of {name}", { name: d.name })}</caption>
              <thead><tr><th>${t("Name")}</th><th>${t("Type")}</th><th>${t("Required")}</th><th>${t("Meaning")}</th></tr></thead>
              <tbody>${d.parameters.map((p) => html`<tr><td><code>${p.name}</code></td><td>${p.type}</td><td>${p.required ? t("yes") : t("no")}</td><td>${p.description}</td></tr>`)}</tbody></table>`
            : html`<p class="muted">${t("No parameters.")}</p>`
        }
      </article>`,
    )}
    ${
      admin && archives.data?.length
        ? html`<h2>${t("Active archives")}</h2><ul class="plain">${archives.data.map(
            (a) =>
              html`<li><strong>${a.name}</strong> ${a.active ? t("active") : t("inactive")}: ${a.delegates.join(", ")}</li>`,
          )}</ul>`
        : null
    }
  </section>`;
}
