import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { XmlField } from "./process-templates";

interface DmnTemplate {
  key: string;
  name: string;
  description: string | null;
  xml: string;
  updatedAt: string;
}

/** Creating (POST) or changing (PUT: name, description, XML) a DMN template. */
function TemplateForm({ initial, onSaved }: { initial?: DmnTemplate; onSaved(t: DmnTemplate): void }) {
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
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? `Change ${initial.name}` : "New DMN template"}>
    <${Alert} error=${error} />
    <div class="row-fields">
      ${
        initial
          ? null
          : html`<div class="field"><label for=${`${id}-key`}>Key</label>
          <input id=${`${id}-key`} required maxlength="100" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>`
      }
      <div class="field"><label for=${`${id}-name`}>Name</label>
        <input id=${`${id}-name`} required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for=${`${id}-desc`}>Description</label>
        <input id=${`${id}-desc`} value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
    </div>
    <${XmlField} id=${id} kind="DMN" value=${xml} onValue=${setXml} required=${true} />
    <button type="submit" class="primary">${initial ? `Save ${initial.name}` : "Create DMN template"}</button>
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
  const remove = (t: DmnTemplate) => {
    if (!confirm(`Delete the DMN template “${t.name}”? Companies keep the copies they made.`)) return;
    return run(() =>
      api("DELETE", `/admin/dmn-templates/${encodeURIComponent(t.key)}`).then(() => after(`${t.name} deleted.`)),
    );
  };
  const rows = list.data ?? [];
  const edited = rows.find((t) => t.key === editing);
  return html`<section>
    <h1>DMN templates</h1>
    <h2>New DMN template</h2>
    <${TemplateForm} key=${formKey} onSaved=${(t: DmnTemplate) => {
      setFormKey(formKey + 1);
      after(`DMN template ${t.name} created.`);
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      edited
        ? html`<h2>Change ${edited.name}</h2><${TemplateForm} initial=${edited} key=${edited.key} onSaved=${(t: DmnTemplate) => after(`${t.name} saved.`)} />
        <button type="button" onClick=${() => setEditing(null)}>Cancel</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">No DMN templates yet. Create one above from a DMN file; Modelers then copy it into their company.</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>Global DMN templates</caption>
      <thead><tr><th>Name</th><th>Key</th><th>Description</th><th>Updated</th><th>Actions</th></tr></thead>
      <tbody>${rows.map(
        (
          t,
        ) => html`<tr key=${t.key} data-key=${t.key}><td>${t.name}</td><td><code>${t.key}</code></td><td>${t.description ?? ""}</td>
          <td>${when(t.updatedAt)}</td>
          <td class="actions-cell"><button type="button" aria-label=${`Change ${t.name}`} onClick=${() => setEditing(t.key)}>Change</button>
            <button type="button" class="danger" aria-label=${`Delete ${t.name}`} onClick=${() => remove(t)}>Delete</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
