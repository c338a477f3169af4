import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";

interface DocumentType {
  id: string;
  name: string;
  description: string | null;
  status: "ACTIVE" | "INACTIVE";
  isGlobal: boolean;
  processKey: string | null;
}

/** Name, description and process of a type, for the new one and for a change. */
function TypeForm({
  id,
  initial,
  global,
  submit,
  onDone,
}: {
  id: string;
  initial?: DocumentType;
  global: boolean;
  submit: string;
  onDone(
    body: { name: string; description: string | null; processKey: string | null },
    isGlobal: boolean,
  ): Promise<void>;
}) {
  const [name, setName] = useState(initial?.name ?? "");
  const [description, setDescription] = useState(initial?.description ?? "");
  const [processKey, setProcessKey] = useState(initial?.processKey ?? "");
  const [isGlobal, setGlobal] = useState(false);
  const { error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const body = {
        name: name.trim(),
        description: description.trim() || null,
        processKey: processKey.trim() || null,
      };
      await onDone(body, isGlobal);
      if (!initial) {
        setName("");
        setDescription("");
        setProcessKey("");
      }
    });
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? `Change ${initial.name}` : undefined}
      aria-labelledby=${initial ? undefined : "new-dt"}>
    ${initial ? null : html`<h2 id="new-dt">New document type</h2>`}
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for=${`${id}-name`}>Name</label>
        <input id=${`${id}-name`} required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for=${`${id}-desc`}>Description</label>
        <input id=${`${id}-desc`} value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
      <div class="field"><label for=${`${id}-proc`}>Process key (empty: every process)</label>
        <input id=${`${id}-proc`} value=${processKey} onInput=${(e: Event) => setProcessKey(valueOf(e))} /></div>
    </div>
    ${
      global && !initial
        ? html`<label class="choice"><input type="checkbox" checked=${isGlobal} onChange=${(e: Event) => setGlobal(checkedOf(e))} />
          Global (offered to every company)</label>`
        : null
    }
    <button type="submit" class="primary">${submit}</button>
  </form>`;
}

/**
 * Document types (GET /a/document-types: Manager or Modeler reads; Modeler writes; the global layer only an SA): the
 * kinds of file a form's file field or an upload asks for. Deactivating keeps the type on files that carry it.
 */
export function DocumentTypesPage() {
  const list = useLoad(() => api<DocumentType[]>("GET", "/a/document-types"));
  const writer = hasRole("MODELER", "ADMIN");
  const sa = hasRole("SUPER_ADMIN");
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const mayWrite = (t: DocumentType) => writer && (!t.isGlobal || sa);
  const create = async (body: object, isGlobal: boolean) => {
    await api("POST", `/a/document-types${isGlobal ? "?isGlobal=true" : ""}`, body);
    setDone(null);
    list.reload();
  };
  const change = (t: DocumentType, body: object, message: string) =>
    run(async () => {
      await api("PUT", `/a/document-types/${t.id}`, body);
      setEditing(null);
      setDone(message);
      list.reload();
    });
  const remove = (t: DocumentType) => {
    if (!confirm(`Delete the document type “${t.name}”? Uploads can no longer choose it.`)) return;
    return run(() => api("DELETE", `/a/document-types/${t.id}`).then(list.reload));
  };
  const rows = list.data ?? [];
  return html`<section>
    <h1>Document types</h1>
    ${
      writer
        ? html`<${TypeForm} id="dt" global=${sa} submit="Create document type" onDone=${create} />`
        : html`<p class="hint">Only a Modeler or an Admin adds or changes document types.</p>`
    }
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">No document types yet. ${writer ? "Create one above (an invoice, an ID card…); file fields and uploads then ask for it." : "A Modeler creates them."}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>Document types</caption>
      <thead><tr><th>Name</th><th>Description</th><th>For</th><th>Status</th>${writer ? html`<th>Actions</th>` : null}</tr></thead>
      <tbody>${rows.map(
        (t) => html`<tr key=${t.id} data-name=${t.name}><td>${t.name}</td><td>${t.description ?? ""}</td>
          <td>${t.isGlobal ? "every company" : t.processKey ? html`process <code>${t.processKey}</code>` : "every process"}</td>
          <td><span class=${`status ${t.status}`}>${t.status === "ACTIVE" ? "active" : "inactive"}</span></td>
          ${
            writer
              ? html`<td class="actions-cell">${
                  !mayWrite(t)
                    ? html`<small>global: only an SA changes it</small>`
                    : editing === t.id
                      ? html`<${TypeForm} id="edit" initial=${t} global=${false} submit=${`Save ${t.name}`}
                      onDone=${(body: object) => change(t, body, `${t.name} saved.`)} />
                    <button type="button" onClick=${() => setEditing(null)}>Cancel</button>`
                      : html`<button type="button" aria-label=${`Change ${t.name}`} onClick=${() => setEditing(t.id)}>Change</button>
                    <button type="button" aria-label=${`${t.status === "ACTIVE" ? "Deactivate" : "Activate"} ${t.name}`}
                      onClick=${() => change(t, { status: t.status === "ACTIVE" ? "INACTIVE" : "ACTIVE" }, `${t.name} is now ${t.status === "ACTIVE" ? "inactive" : "active"}.`)}>
                      ${t.status === "ACTIVE" ? "Deactivate" : "Activate"}</button>
                    <button type="button" class="danger" aria-label=${`Delete ${t.name}`} onClick=${() => remove(t)}>Delete</button>`
                }</td>`
              : null
          }</tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
