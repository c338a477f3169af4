import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";
import { type CmsField, parseFields } from "./cms-fields";

export interface CmsCollection {
  id: string;
  name: string;
  fields: CmsField[];
  confidentiality: "PUBLIC" | "SECRET" | "TOP_SECRET";
  recordCount: number;
}

/** The levels a caller may classify with: a Manager up to SECRET, an Admin (or SA) TOP_SECRET too. */
export const levels = () => (hasRole("ADMIN") ? ["PUBLIC", "SECRET", "TOP_SECRET"] : ["PUBLIC", "SECRET"]);
/** A level as a reader sees it (the API's value stays as it is). */
export function levelLabel(level: string): string {
  const names: Record<string, string> = { PUBLIC: t("PUBLIC"), SECRET: t("SECRET"), TOP_SECRET: t("TOP_SECRET") };
  return names[level] ?? level;
}
/** How the collection form's fields box explains its lines. */
export const fieldsHelp = () =>
  t("Fields (one per line: name: type Label; ! after the type: required; = a, b: options)");

function NewCollection() {
  const [name, setName] = useState("");
  const [level, setLevel] = useState("PUBLIC");
  const [fields, setFields] = useState("name: text! Name");
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    const parsed = parseFields(fields);
    return run(async () => {
      if ("error" in parsed) throw new Error(parsed.error);
      const c = await api<CmsCollection>("POST", "/a/cms/collections", {
        name: name.trim(),
        confidentiality: level,
        fields: parsed.fields,
      });
      location.hash = `#/settings/cms/${c.id}`;
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-cms">
    <h2 id="new-cms">${t("New collection")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="cms-name">${t("Name")}</label>
        <input id="cms-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for="cms-level">${t("Confidentiality")}</label>
        <select id="cms-level" value=${level} onChange=${(e: Event) => setLevel(valueOf(e))}>
          ${levels().map((l) => html`<option value=${l}>${levelLabel(l)}</option>`)}</select></div>
    </div>
    <div class="field"><label for="cms-fields">${fieldsHelp()}</label>
      <textarea id="cms-fields" class="code" rows="4" value=${fields} onInput=${(e: Event) => setFields(valueOf(e))}></textarea></div>
    <button type="submit" class="primary">${t("Create collection")}</button>
  </form>`;
}

/**
 * CMS collections (GET /a/cms/collections: the ones the caller's level may read): structured data processes and
 * agents query. A Manager creates one (fields and confidentiality) and opens it for its records.
 */
export function CmsCollectionsPage() {
  const list = useLoad(() => api<CmsCollection[]>("GET", "/a/cms/collections"));
  const writer = hasRole("MANAGER", "ADMIN");
  const rows = list.data ?? [];
  return html`<section>
    <h1>${t("CMS collections")}</h1>
    ${writer ? html`<${NewCollection} />` : html`<p class="hint">${t("Only a Manager or an Admin creates and changes collections.")}</p>`}
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${t("No collections you may read.")} ${writer ? t("Create one above (a price list, a customer register…), then load its records.") : ""}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Collections")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Fields")}</th><th>${t("Confidentiality")}</th><th>${t("Records")}</th></tr></thead>
      <tbody>${rows.map(
        (c) => html`<tr key=${c.id} data-name=${c.name}><td><a href=${`#/settings/cms/${c.id}`}>${c.name}</a></td>
          <td>${c.fields.map((f) => f.name).join(", ")}</td><td>${levelLabel(c.confidentiality)}</td><td>${c.recordCount}</td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
