import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { type CmsCollection, levels } from "./cms-collections";
import { CmsBulkLoad } from "./cms-bulk";
import { formatFields, parseFields, toInput } from "./cms-fields";
import { type CmsRecord, CmsRecordForm } from "./cms-record-form";

const SIZE = 50;

/** A Manager's change of the collection: name, fields (as lines) and confidentiality (PUT). */
function CollectionForm({ c, onSaved }: { c: CmsCollection; onSaved(): void }) {
  const [name, setName] = useState(c.name);
  const [level, setLevel] = useState<string>(c.confidentiality);
  const [fields, setFields] = useState(formatFields(c.fields));
  const { error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    const parsed = parseFields(fields, c.fields);
    return run(async () => {
      if ("error" in parsed) throw new Error(parsed.error);
      await api("PUT", `/a/cms/collections/${c.id}`, {
        name: name.trim(),
        confidentiality: level,
        fields: parsed.fields,
      });
      onSaved();
    });
  };
  return html`<form class="inline" onSubmit=${save} aria-label="Change the collection">
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="cc-name">Name</label><input id="cc-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for="cc-level">Confidentiality</label>
        <select id="cc-level" value=${level} onChange=${(e: Event) => setLevel(valueOf(e))}>
          ${[...new Set([...levels(), c.confidentiality])].map((l) => html`<option value=${l}>${l}</option>`)}</select></div>
    </div>
    <div class="field"><label for="cc-fields">Fields (one per line: name: type Label; ! after the type: required; = a, b: options)</label>
      <textarea id="cc-fields" class="code" rows="4" value=${fields} onInput=${(e: Event) => setFields(valueOf(e))}></textarea></div>
    <button type="submit" class="primary">Save the collection</button>
  </form>`;
}

/**
 * One CMS collection (GET /a/cms/collections/{id}) and its records, paged. A Manager adds, changes and deletes records,
 * changes the collection, empties it and deletes it (each confirmed: CMS deletion has no undo).
 */
export function CmsCollectionPage({ id }: { id: string }) {
  const coll = useLoad(() => api<CmsCollection>("GET", `/a/cms/collections/${id}`), [id]);
  const [page, setPage] = useState(0);
  const records = useLoad(
    () =>
      api<{ content: CmsRecord[]; totalPages: number; totalElements: number }>(
        "GET",
        `/a/cms/collections/${id}/records?page=${page}&size=${SIZE}`,
      ),
    [id, page],
  );
  const [editing, setEditing] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const [loading, setLoading] = useState(false);
  const { error, run } = useAction();
  const writer = hasRole("MANAGER", "ADMIN");
  const reload = () => {
    setEditing(null);
    setChanging(false);
    coll.reload();
    records.reload();
  };
  if (!coll.data) return html`<${Pending} error=${coll.error} />`;
  const c = coll.data;
  const removeRecord = (r: CmsRecord) => {
    if (!confirm("Delete this record? There is no undo.")) return;
    return run(() => api("DELETE", `/a/cms/collections/${id}/records/${r.id}`).then(reload));
  };
  const empty = () => {
    if (!confirm(`Delete all ${c.recordCount} records of ${c.name}? There is no undo.`)) return;
    return run(() => api("DELETE", `/a/cms/collections/${id}/records`).then(reload));
  };
  const removeCollection = () => {
    if (!confirm(`Delete the collection ${c.name} with all its records? There is no undo.`)) return;
    return run(() => api("DELETE", `/a/cms/collections/${id}`).then(() => (location.hash = "#/settings/cms")));
  };
  const rows = records.data?.content ?? [];
  const edited = rows.find((r) => r.id === editing);
  return html`<section>
    <p><a href="#/settings/cms">← CMS collections</a></p>
    <h1>${c.name} <small>${c.confidentiality}</small></h1>
    <${Alert} error=${error} />
    ${
      writer
        ? html`<div class="row-actions">
          <button type="button" onClick=${() => setChanging(!changing)}>${changing ? "Close" : "Change the collection"}</button>
          <button type="button" onClick=${() => setLoading(!loading)}>${loading ? "Close loading" : "Load records"}</button>
          <button type="button" class="danger" disabled=${!c.recordCount} onClick=${empty}>Delete all records</button>
          <button type="button" class="danger" onClick=${removeCollection}>Delete the collection</button></div>
        ${changing ? html`<${CollectionForm} c=${c} onSaved=${reload} />` : null}
        ${
          loading
            ? html`<${CmsBulkLoad} collectionId=${id} onLoaded=${() => {
                coll.reload();
                records.reload();
              }} />`
            : null
        }
        <h2>${edited ? "Change the record" : "New record"}</h2>
        ${
          edited
            ? html`<${CmsRecordForm} collectionId=${id} fields=${c.fields} initial=${edited} key=${edited.id} onSaved=${reload} />
            <button type="button" onClick=${() => setEditing(null)}>Cancel</button>`
            : html`<${CmsRecordForm} collectionId=${id} fields=${c.fields} key=${`new-${c.recordCount}`} onSaved=${reload} />`
        }`
        : null
    }
    ${!records.data ? html`<${Pending} error=${records.error} />` : null}
    ${records.data && !rows.length ? html`<p class="empty">No records yet.${writer ? " Add one above." : ""}</p>` : null}
    ${
      rows.length
        ? html`<div class="scroll"><table class="grid"><caption>${records.data?.totalElements} records</caption>
      <thead><tr>${c.fields.map((f) => html`<th>${f.label ?? f.name}</th>`)}${writer ? html`<th>Actions</th>` : null}</tr></thead>
      <tbody>${rows.map(
        (
          r,
          i,
        ) => html`<tr key=${r.id} data-record=${i}>${c.fields.map((f) => html`<td>${toInput(f, r.values[f.name])}</td>`)}
          ${
            writer
              ? html`<td class="actions-cell"><button type="button" aria-label=${`Change record ${i + 1}`} onClick=${() => setEditing(r.id)}>Change</button>
              <button type="button" class="danger" aria-label=${`Delete record ${i + 1}`} onClick=${() => removeRecord(r)}>Delete</button></td>`
              : null
          }</tr>`,
      )}</tbody></table></div>`
        : null
    }
    ${
      records.data && records.data.totalPages > 1
        ? html`<div class="row-actions"><button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>Previous</button>
          <span>page ${page + 1} of ${records.data.totalPages}</span>
          <button type="button" disabled=${page + 1 >= records.data.totalPages} onClick=${() => setPage(page + 1)}>Next</button></div>`
        : null
    }
  </section>`;
}
