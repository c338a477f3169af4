import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
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
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? t("Change {name}", { name: initial.name }) : undefined}
      aria-labelledby=${initial ? undefined : "new-dt"}>
    ${initial ? null : html`<h2 id="new-dt">${t("New document type")}</h2>`}
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for=${`${id}-name`}>${t("Name")}</label>
        <input id=${`${id}-name`} required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for=${`${id}-desc`}>${t("Description")}</label>
        <input id=${`${id}-desc`} value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
      <div class="field"><label for=${`${id}-proc`}>${t("Process key (empty: every process)")}</label>
        <input id=${`${id}-proc`} value=${processKey} onInput=${(e: Event) => setProcessKey(valueOf(e))} /></div>
    </div>
    ${
      global && !initial
        ? html`<label class="choice"><input type="checkbox" checked=${isGlobal} onChange=${(e: Event) => setGlobal(checkedOf(e))} />
          ${t("Global (offered to every company)")}</label>`
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
  const mayWrite = (d: DocumentType) => writer && (!d.isGlobal || sa);
  const create = async (body: object, isGlobal: boolean) => {
    await api("POST", `/a/document-types${isGlobal ? "?isGlobal=true" : ""}`, body);
    setDone(null);
    list.reload();
  };
  const change = (d: DocumentType, body: object, message: string) =>
    run(async () => {
      await api("PUT", `/a/document-types/${d.id}`, body);
      setEditing(null);
      setDone(message);
      list.reload();
    });
  const remove = (d: DocumentType) => {
    if (!confirm(t("Delete the document type “{name}”? Uploads can no longer choose it.", { name: d.name }))) return;
    return run(() => api("DELETE", `/a/document-types/${d.id}`).then(list.reload));
  };
  const rows = list.data ?? [];
  return html`<section>
    <h1>${t("Document types")}</h1>
    ${
      writer
        ? html`<${TypeForm} id="dt" global=${sa} submit=${t("Create document type")} onDone=${create} />`
        : html`<p class="hint">${t("Only a Modeler or an Admin adds or changes document types.")}</p>`
    }
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${writer ? t("No document types yet. Create one above (an invoice, an ID card…); file fields and uploads then ask for it.") : t("No document types yet. A Modeler creates them.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Document types")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Description")}</th><th>${t("For")}</th><th>${t("Status")}</th>${writer ? html`<th>${t("Actions")}</th>` : null}</tr></thead>
      <tbody>${rows.map(
        (d) => html`<tr key=${d.id} data-name=${d.name}><td>${d.name}</td><td>${d.description ?? ""}</td>
          <td>${d.isGlobal ? t("every company") : d.processKey ? html`${t("process")} <code>${d.processKey}</code>` : t("every process")}</td>
          <td><span class=${`status ${d.status}`}>${d.status === "ACTIVE" ? t("active") : t("inactive")}</span></td>
          ${
            writer
              ? html`<td class="actions-cell">${
                  !mayWrite(d)
                    ? html`<small>${t("global: only an SA changes it")}</small>`
                    : editing === d.id
                      ? html`<${TypeForm} id="edit" initial=${d} global=${false} submit=${t("Save {name}", { name: d.name })}
                      onDone=${(body: object) => change(d, body, t("{name} saved.", { name: d.name }))} />
                    <button type="button" onClick=${() => setEditing(null)}>${t("Cancel")}</button>`
                      : html`<button type="button" aria-label=${t("Change {name}", { name: d.name })} onClick=${() => setEditing(d.id)}>${t("Change")}</button>
                    <button type="button" aria-label=${d.status === "ACTIVE" ? t("Deactivate {name}", { name: d.name }) : t("Activate {name}", { name: d.name })}
                      onClick=${() => change(d, { status: d.status === "ACTIVE" ? "INACTIVE" : "ACTIVE" }, d.status === "ACTIVE" ? t("{name} is now inactive.", { name: d.name }) : t("{name} is now active.", { name: d.name }))}>
                      ${d.status === "ACTIVE" ? t("Deactivate") : t("Activate")}</button>
                    <button type="button" class="danger" aria-label=${t("Delete {name}", { name: d.name })} onClick=${() => remove(d)}>${t("Delete")}</button>`
                }</td>`
              : null
          }</tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
