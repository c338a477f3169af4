import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { plural, t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";
import { type CmsCollection, fieldsHelp, levelLabel, levels } from "./cms-collections";
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
  return html`<form class="inline" onSubmit=${save} aria-label=${t("Change the collection")}>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="cc-name">${t("Name")}</label><input id="cc-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for="cc-level">${t("Confidentiality")}</label>
        <select id="cc-level" value=${level} onChange=${(e: Event) => setLevel(valueOf(e))}>
          ${[...new Set([...levels(), c.confidentiality])].map((l) => html`<option value=${l}>${levelLabel(l)}</option>`)}</select></div>
    </div>
    <div class="field"><label for="cc-fields">${fieldsHelp()}</label>
      <textarea id="cc-fields" class="code" rows="4" value=${fields} onInput=${(e: Event) => setFields(valueOf(e))}></textarea></div>
    <button type="submit" class="primary">${t("Save the collection")}</button>
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
    if (!confirm(t("Delete this record? There is no undo."))) return;
    return run(() => api("DELETE", `/a/cms/collections/${id}/records/${r.id}`).then(reload));
  };
  const empty = () => {
    if (!confirm(t("Delete all {n} records of {name}? There is no undo.", { n: c.recordCount, name: c.name }))) return;
    return run(() => api("DELETE", `/a/cms/collections/${id}/records`).then(reload));
  };
  const removeCollection = () => {
    if (!confirm(t("Delete the collection {name} with all its records? There is no undo.", { name: c.name }))) return;
    return run(() => api("DELETE", `/a/cms/collections/${id}`).then(() => (location.hash = "#/settings/cms")));
  };
  const rows = records.data?.content ?? [];
  const edited = rows.find((r) => r.id === editing);
  return html`<section>
    <p><a href="#/settings/cms">← ${t("CMS collections")}</a></p>
    <h1>${c.name} <small>${levelLabel(c.confidentiality)}</small></h1>
    <${Alert} error=${error} />
    ${
      writer
        ? html`<div class="row-actions">
          <button type="button" onClick=${() => setChanging(!changing)}>${changing ? t("Close") : t("Change the collection")}</button>
          <button type="button" onClick=${() => setLoading(!loading)}>${loading ? t("Close loading") : t("Load records")}</button>
          <button type="button" class="danger" disabled=${!c.recordCount} onClick=${empty}>${t("Delete all records")}</button>
          <button type="button" class="danger" onClick=${removeCollection}>${t("Delete the collection")}</button></div>
        ${changing ? html`<${CollectionForm} c=${c} onSaved=${reload} />` : null}
        ${
          loading
            ? html`<${CmsBulkLoad} collectionId=${id} onLoaded=${() => {
                coll.reload();
                records.reload();
              }} />`
            : null
        }
        <h2>${edited ? t("Change the record") : t("New record")}</h2>
        ${
          edited
            ? html`<${CmsRecordForm} collectionId=${id} fields=${c.fields} initial=${edited} key=${edited.id} onSaved=${reload} />
            <button type="button" onClick=${() => setEditing(null)}>${t("Cancel")}</button>`
            : html`<${CmsRecordForm} collectionId=${id} fields=${c.fields} key=${`new-${c.recordCount}`} onSaved=${reload} />`
        }`
        : null
    }
    ${!records.data ? html`<${Pending} error=${records.error} />` : null}
    ${records.data && !rows.length ? html`<p class="empty">${writer ? t("No records yet. Add one above.") : t("No records yet.")}</p>` : null}
    ${
      rows.length
        ? html`<div class="scroll"><table class="grid"><caption>${plural(records.data?.totalElements ?? 0, "{n} record", "{n} records")}</caption>
      <thead><tr>${c.fields.map((f) => html`<th>${f.label ?? f.name}</th>`)}${writer ? html`<th>${t("Actions")}</th>` : null}</tr></thead>
      <tbody>${rows.map(
        (
          r,
          i,
        ) => html`<tr key=${r.id} data-record=${i}>${c.fields.map((f) => html`<td>${toInput(f, r.values[f.name])}</td>`)}
          ${
            writer
              ? html`<td class="actions-cell"><button type="button" aria-label=${t("Change record {n}", { n: i + 1 })} onClick=${() => setEditing(r.id)}>${t("Change")}</button>
              <button type="button" class="danger" aria-label=${t("Delete record {n}", { n: i + 1 })} onClick=${() => removeRecord(r)}>${t("Delete")}</button></td>`
              : null
          }</tr>`,
      )}</tbody></table></div>`
        : null
    }
    ${
      records.data && records.data.totalPages > 1
        ? html`<div class="row-actions"><button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>${t("Previous")}</button>
          <span>${t("page {page} of {pages}", { page: page + 1, pages: records.data.totalPages })}</span>
          <button type="button" disabled=${page + 1 >= records.data.totalPages} onClick=${() => setPage(page + 1)}>${t("Next")}</button></div>`
        : null
    }
  </section>`;
}
