import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { when } from "../../format";
import { FormView } from "../../form/form-view";
import { type Field, fieldsOf, type Values } from "../../form/model";
import { html } from "../../html";
import { go } from "../../router";
import { Pending, useAction, useLoad } from "../../use-load";
import { FieldRows } from "./field-rows";
import { t } from "../../i18n";

interface Version {
  num: number;
  versionId: string;
  createdAt: string;
  published: boolean;
}
interface Detail {
  key: string;
  name: string;
  schema: unknown;
}

const enc = encodeURIComponent;
type Schema = Record<string, unknown>;

/** The versions of a form with Publish on each that is not the published one (POST .../publish {versionId}). */
function Versions({ base, versions, onPublished }: { base: string; versions: Version[]; onPublished(): void }) {
  const { error, run } = useAction();
  const publish = (v: Version) =>
    run(() => api("POST", `${base}/publish`, { versionId: v.versionId }).then(onPublished));
  return html`<div>
    <${Alert} error=${error} />
    <table class="grid"><caption>${t("Versions (saving makes a new one; tasks keep the version they started with)")}</caption>
      <thead><tr><th>${t("Version")}</th><th>${t("Saved")}</th><th>${t("Published")}</th><th></th></tr></thead>
      <tbody>${versions.map(
        (v) => html`<tr data-num=${v.num}><td>v${v.num}</td><td>${when(v.createdAt)}</td>
          <td>${v.published ? html`<strong class="status ACTIVE">${t("published")}</strong>` : "—"}</td>
          <td>${v.published ? null : html`<button type="button" aria-label=${t("Publish version {n}", { n: v.num })} onClick=${() => publish(v)}>${t("Publish")}</button>`}</td></tr>`,
      )}</tbody>
    </table>
  </div>`;
}

/** Try the form as a person would fill it; the values it would send are shown, nothing is saved. */
function Preview({ schema }: { schema: Schema }) {
  const [sent, setSent] = useState<Values | null>(null);
  return html`<section aria-labelledby="preview-h" class="preview">
    <h2 id="preview-h">${t("Preview")}</h2>
    <${FormView} key=${JSON.stringify(schema)} schema=${schema} submitLabel=${t("Try")} onSubmit=${async (v: Values) => setSent(v)} />
    ${sent ? html`<div class="notice" role="status"><p>${t("The form would send:")}</p><pre>${JSON.stringify(sent, null, 2)}</pre></div>` : null}
  </section>`;
}

/** The editor: the field rows (or the whole schema as JSON), save (a new version), versions and publish, preview. */
function Editor({
  processKey,
  detail,
  versions,
  reload,
}: {
  processKey: string;
  detail: Detail | null;
  versions: Version[];
  reload(): void;
}) {
  const [key, setKey] = useState(detail?.key ?? "");
  const [name, setName] = useState(detail?.name ?? "");
  const [schema, setSchema] = useState<Schema>((detail?.schema as Schema) ?? { fields: [] });
  const [json, setJson] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const { error, run } = useAction();
  const base = `/a/definitions/${enc(processKey)}/forms`;
  /** The schema being edited: the JSON text when that view is open (it must parse), else the rows' schema. */
  const current = (): Schema => {
    if (json === null) return schema;
    try {
      return JSON.parse(json) as Schema;
    } catch (e) {
      throw new Error(t("The schema is not valid JSON: {reason}", { reason: (e as Error).message }));
    }
  };
  const toggleJson = () =>
    run(async () => {
      if (json === null) setJson(JSON.stringify(schema, null, 2));
      else {
        setSchema(current());
        setJson(null);
      }
    });
  const save = (e: Event) => {
    e.preventDefault();
    setSaved(null);
    return run(async () => {
      const s = current();
      if (detail) {
        await api("PUT", `${base}/${enc(detail.key)}`, { name: name.trim(), schema: s });
        setSaved(t("Saved as a new version."));
        reload();
      } else {
        await api("POST", base, { key: key.trim(), name: name.trim(), schema: s });
        go(`/modeler/forms/${enc(processKey)}/${enc(key.trim())}`);
      }
    });
  };
  const previewSchema = (() => {
    try {
      return current();
    } catch {
      return schema;
    }
  })();
  return html`<div class="form-editor">
    <form onSubmit=${save} aria-labelledby="fe-h">
      <h2 id="fe-h">${detail ? t("Fields") : t("New form")}</h2>
      <${Alert} error=${error} />
      ${saved ? html`<div class="notice" role="status">${saved}</div>` : null}
      <div class="row-fields">
        <div class="field"><label for="fe-key">${t("Form key")}</label>
          <input id="fe-key" required readonly=${!!detail} value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
        <div class="field"><label for="fe-name">${t("Form name")}</label>
          <input id="fe-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      </div>
      <p><button type="button" onClick=${toggleJson}>${json === null ? t("Edit as JSON") : t("Back to the field list")}</button></p>
      ${
        json === null
          ? html`<${FieldRows} fields=${fieldsOf(schema)} onChange=${(fields: Field[]) => setSchema({ ...schema, fields })} />`
          : html`<div class="field"><label for="fe-json">${t("Schema (JSON; see the field types in the documentation)")}</label>
              <textarea id="fe-json" class="code" rows="18" value=${json} onInput=${(e: Event) => setJson(valueOf(e))} /></div>`
      }
      <p><button type="submit" class="primary">${detail ? t("Save a new version") : t("Create the form")}</button></p>
    </form>
    ${detail ? html`<${Versions} base=${`${base}/${enc(detail.key)}`} versions=${versions} onPublished=${reload} />` : null}
    <${Preview} schema=${previewSchema} />
  </div>`;
}

/** Forms editor of a process (`formKey` absent: a new form): the field schema, versions and publish (docs/forms.md). */
export function FormEditorPage({ processKey, formKey }: { processKey: string; formKey?: string }) {
  const base = `/a/definitions/${enc(processKey)}/forms`;
  const data = useLoad(
    () =>
      formKey
        ? Promise.all([
            api<Detail>("GET", `${base}/${enc(formKey)}`),
            api<Version[]>("GET", `${base}/${enc(formKey)}/versions`),
          ])
        : Promise.resolve(null),
    [processKey, formKey],
  );
  if (formKey && !data.data) return html`<${Pending} error=${data.error} />`;
  const [detail, versions] = data.data ?? [null, []];
  return html`<section>
    <p><a href=${`#/modeler/definitions/${enc(processKey)}`}>← ${processKey}</a></p>
    <h1>${detail ? t("Form {name}", { name: detail.name }) : t("New form")} <span class="muted">${processKey}</span></h1>
    <${Editor} key=${formKey ?? "new"} processKey=${processKey} detail=${detail} versions=${versions} reload=${data.reload} />
  </section>`;
}
