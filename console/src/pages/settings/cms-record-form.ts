import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { useAction } from "../../use-load";
import { type CmsField, fromInput, toInput } from "./cms-fields";

export interface CmsRecord {
  id: string;
  values: Record<string, unknown>;
}

const INPUT_TYPE: Record<string, string> = {
  number: "number",
  integer: "number",
  date: "date",
  email: "email",
  url: "url",
  datetime: "datetime-local",
};

/** One record's values, a control per field by its type; creates (POST) or replaces (PUT) the record. */
export function CmsRecordForm({
  collectionId,
  fields,
  initial,
  onSaved,
}: {
  collectionId: string;
  fields: CmsField[];
  initial?: CmsRecord;
  onSaved(): void;
}) {
  const [text, setText] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((f) => [f.name, toInput(f, initial?.values[f.name])])),
  );
  const { error, run } = useAction();
  const id = (f: CmsField) => `${initial ? "re" : "rn"}-${f.name}`;
  const set = (name: string, v: string) => setText({ ...text, [name]: v });
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const values: Record<string, unknown> = {};
      for (const f of fields) {
        const v = fromInput(f, text[f.name] ?? "");
        if (v !== undefined) values[f.name] = v;
      }
      const base = `/a/cms/collections/${collectionId}/records`;
      await api(initial ? "PUT" : "POST", initial ? `${base}/${initial.id}` : base, { values });
      if (!initial) setText(Object.fromEntries(fields.map((f) => [f.name, ""])));
      onSaved();
    });
  };
  const control = (f: CmsField) => {
    if (f.type === "boolean")
      return html`<select id=${id(f)} value=${text[f.name]} onChange=${(e: Event) => set(f.name, valueOf(e))}>
        <option value="">—</option><option value="true">${t("yes")}</option><option value="false">${t("no")}</option></select>`;
    if (f.type === "select")
      return html`<select id=${id(f)} required=${!!f.required} value=${text[f.name]} onChange=${(e: Event) => set(f.name, valueOf(e))}>
        <option value="">—</option>${(f.options ?? []).map((o) => html`<option value=${o}>${o}</option>`)}</select>`;
    if (f.type === "longtext" || f.type === "json")
      return html`<textarea id=${id(f)} rows="2" required=${!!f.required} value=${text[f.name]} onInput=${(e: Event) => set(f.name, valueOf(e))}></textarea>`;
    return html`<input id=${id(f)} type=${INPUT_TYPE[f.type] ?? "text"} step=${f.type === "number" ? "any" : undefined}
      required=${!!f.required} value=${text[f.name]} onInput=${(e: Event) => set(f.name, valueOf(e))} />`;
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? t("Change the record") : t("New record")}>
    <${Alert} error=${error} />
    <div class="row-fields">${fields.map(
      (f) =>
        html`<div class="field"><label for=${id(f)}>${f.label ?? f.name}${f.required ? " *" : ""}</label>${control(f)}</div>`,
    )}</div>
    <button type="submit" class="primary">${initial ? t("Save the record") : t("Add record")}</button>
  </form>`;
}
