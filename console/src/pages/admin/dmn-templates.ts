import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { XmlField } from "./process-templates";
import { t } from "../../i18n";

interface DmnTemplate {
  key: string;
  name: string;
  description: string | null;
  xml: string;
  updatedAt: string;
}

/** Creating (POST) or changing (PUT: name, description, XML) a DMN template. */
function TemplateForm({ initial, onSaved }: { initial?: DmnTemplate; onSaved(d: DmnTemplate): void }) {
  const [key, setKey] = useState("");
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [xml, setXml] = useState(initial?.xml ?? "");
  const { error, run } = useAction();
  const id = initial ? "dte" : "dt";
  const save = (e: Event) => {
    e.preventDefault();
    const body = { name: name.trim(), description: description.trim() || null, xml };
    return run(async () =>
      onSaved(
        initial
          ? await api<DmnTemplate>("PUT", `/admin/dmn-templates/${encodeURIComponent(initial.key)}`, body)
          : await api<DmnTemplate>("POST", "/admin/dmn-templates", { key: key.trim(), ...body }),
      ),
    );
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? t("Change {name}", { name: initial.name }) : t("New DMN template")}>
    <${Alert} error=${error} />
    <div class="row-fields">
      ${
        initial
          ? null
          : html`<div class="field"><label for=${`${id}-key`}>${t("Key")}</label>
          <input id=${`${id}-key`} required maxlength="100" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>`
      }
      <div class="field"><label for=${`${id}-name`}>${t("Name")}</label>
        <input id=${`${id}-name`} required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for=${`${id}-desc`}>${t("Description")}</label>
        <input id=${`${id}-desc`} value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
    </div>
    <${XmlField} id=${id} kind="DMN" value=${xml} onValue=${setXml} required=${true} />
    <button type="submit" class="primary">${initial ? t("Save {what}", { what: initial.name }) : t("Create DMN template")}</button>
  </form>`;
}

/**
 * SA: global DMN templates (/admin/dmn-templates): decision tables every company's Modelers can copy into their own
 * (`POST /a/decisions/from-template/{key}`). Create, change, delete (confirmed; copies already made stay).
 */
export function DmnTemplatesPage() {
  const list = useLoad(() => api<DmnTemplate[]>("GET", "/admin/dmn-templates"));
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { error, run } = useAction();
  const after = (message: string) => {
    setEditing(null);
    setDone(message);
    list.reload();
  };
  const remove = (d: DmnTemplate) => {
    if (!confirm(t("Delete the DMN template “{name}”? Companies keep the copies they made.", { name: d.name }))) return;
    return run(() =>
      api("DELETE", `/admin/dmn-templates/${encodeURIComponent(d.key)}`).then(() =>
        after(t("{name} deleted.", { name: d.name })),
      ),
    );
  };
  const rows = list.data ?? [];
  const edited = rows.find((d) => d.key === editing);
  return html`<section>
    <h1>${t("DMN templates")}</h1>
    <h2>${t("New DMN template")}</h2>
    <${TemplateForm} key=${formKey} onSaved=${(d: DmnTemplate) => {
      setFormKey(formKey + 1);
      after(t("DMN template {name} created.", { name: d.name }));
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      edited
        ? html`<h2>${t("Change {name}", { name: edited.name })}</h2><${TemplateForm} initial=${edited} key=${edited.key} onSaved=${(d: DmnTemplate) => after(t("{name} saved.", { name: d.name }))} />
        <button type="button" onClick=${() => setEditing(null)}>${t("Cancel")}</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("No DMN templates yet. Create one above from a DMN file; Modelers then copy it into their company.")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Global DMN templates")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Description")}</th><th>${t("Updated")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (
          d,
        ) => html`<tr key=${d.key} data-key=${d.key}><td>${d.name}</td><td><code>${d.key}</code></td><td>${d.description ?? ""}</td>
          <td>${when(d.updatedAt)}</td>
          <td class="actions-cell"><button type="button" aria-label=${t("Change {name}", { name: d.name })} onClick=${() => setEditing(d.key)}>${t("Change")}</button>
            <button type="button" class="danger" aria-label=${t("Delete {name}", { name: d.name })} onClick=${() => remove(d)}>${t("Delete")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
