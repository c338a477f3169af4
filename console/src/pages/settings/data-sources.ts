import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { plural, t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

interface DataSource {
  key: string;
  name: string;
  kind: "STATIC" | "HTTP" | "CMS";
  config?: unknown;
}

/** A starting configuration per kind (docs/human-work.md describes each). */
const EXAMPLE: Record<DataSource["kind"], unknown> = {
  STATIC: { rows: [{ value: "pt", label: "Portugal" }] },
  HTTP: { url: "https://example.com/items", method: "GET", rowsPath: "items" },
  CMS: { collection: "Prices", limit: 100 },
};
const json = (v: unknown) => JSON.stringify(v, null, 2);
/** The JSON in `text`, or the error `message` (which names what was not JSON). */
function parsed(text: string, message: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(message);
  }
}
/** A kind as a reader sees it (the API's value stays as it is). */
const kindLabel = (kind: string) => (kind === "STATIC" ? t("STATIC") : kind);

/** Creating (POST) or replacing (PUT) a data source: key, name, kind and its configuration as JSON. */
function SourceForm({ initial, onSaved }: { initial?: DataSource; onSaved(d: DataSource): void }) {
  const [key, setKey] = useState("");
  const [name, setName] = useState(initial?.name ?? "");
  const [kind, setKind] = useState<DataSource["kind"]>(initial?.kind ?? "STATIC");
  const [config, setConfig] = useState(json(initial?.config ?? EXAMPLE.STATIC));
  const { error, run } = useAction();
  const id = initial ? "dse" : "ds";
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const body = { name: name.trim(), kind, config: parsed(config, t("The configuration is not JSON.")) };
      onSaved(
        initial
          ? await api<DataSource>("PUT", `/a/forms/datasources/${encodeURIComponent(initial.key)}`, body)
          : await api<DataSource>("POST", "/a/forms/datasources", { key: key.trim(), ...body }),
      );
    });
  };
  const pickKind = (e: Event) => {
    const k = valueOf(e) as DataSource["kind"];
    setKind(k);
    if (!initial) setConfig(json(EXAMPLE[k]));
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? t("Change {name}", { name: initial.name }) : t("New data source")}>
    <${Alert} error=${error} />
    <div class="row-fields">
      ${
        initial
          ? null
          : html`<div class="field"><label for=${`${id}-key`}>${t("Key")}</label>
          <input id=${`${id}-key`} required pattern="[A-Za-z0-9_.:\\-]{1,200}" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>`
      }
      <div class="field"><label for=${`${id}-name`}>${t("Name")}</label>
        <input id=${`${id}-name`} required maxlength="200" value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for=${`${id}-kind`}>${t("Kind")}</label>
        <select id=${`${id}-kind`} value=${kind} onChange=${pickKind}>
          <option value="STATIC">${t("fixed rows")}</option><option value="HTTP">${t("HTTP service")}</option><option value="CMS">${t("CMS collection")}</option></select></div>
    </div>
    <div class="field"><label for=${`${id}-config`}>${t("Configuration (JSON)")}</label>
      <textarea id=${`${id}-config`} class="code" rows="5" value=${config} onInput=${(e: Event) => setConfig(valueOf(e))}></textarea></div>
    <button type="submit" class="primary">${initial ? t("Save {name}", { name: initial.name }) : t("Create data source")}</button>
  </form>`;
}

/** Runs a source with parameters (POST .../execute) and shows the rows a form field would offer. */
function TryIt({ source }: { source: DataSource }) {
  const [params, setParams] = useState("{}");
  const [rows, setRows] = useState<Record<string, unknown>[] | null>(null);
  const { error, run } = useAction();
  const go = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const parameters = parsed(params || "{}", t("The parameters are not JSON."));
      setRows(
        (
          await api<{ rows: Record<string, unknown>[] }>(
            "POST",
            `/a/forms/datasources/${encodeURIComponent(source.key)}/execute`,
            { parameters },
          )
        ).rows,
      );
    });
  };
  const cols = [...new Set((rows ?? []).slice(0, 50).flatMap((r) => Object.keys(r)))];
  return html`<form class="inline" onSubmit=${go} aria-label=${t("Try {name}", { name: source.name })}>
    <h2>${t("Try {name}", { name: source.name })}</h2>
    <${Alert} error=${error} />
    <div class="field"><label for="dst-params">${t("Parameters (JSON object)")}</label>
      <input id="dst-params" class="code" value=${params} onInput=${(e: Event) => setParams(valueOf(e))} /></div>
    <button type="submit" class="primary">${t("Run")}</button>
    ${
      rows
        ? html`<div class="scroll" role="status"><table class="grid"><caption>${plural(rows.length, "{n} row", "{n} rows")}</caption>
          <thead><tr>${cols.map((c) => html`<th>${c}</th>`)}</tr></thead>
          <tbody>${rows.slice(0, 50).map((r) => html`<tr>${cols.map((c) => html`<td>${typeof r[c] === "object" ? JSON.stringify(r[c]) : String(r[c] ?? "")}</td>`)}</tr>`)}</tbody></table></div>`
        : null
    }
  </form>`;
}

/**
 * Data sources (GET /a/forms/datasources): the option lists form fields read (fixed rows, an HTTP service, a CMS
 * collection). Create, change, try with parameters, delete (confirmed).
 */
export function DataSourcesPage() {
  const list = useLoad(() => api<DataSource[]>("GET", "/a/forms/datasources"));
  const [selected, setSelected] = useState<{ key: string; mode: "change" | "try" } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { error, run } = useAction();
  const after = (message: string) => {
    setSelected(null);
    setDone(message);
    list.reload();
  };
  const remove = (d: DataSource) => {
    if (!confirm(t("Delete the data source “{name}”? Form fields naming it get no options.", { name: d.name }))) return;
    return run(() =>
      api("DELETE", `/a/forms/datasources/${encodeURIComponent(d.key)}`).then(() =>
        after(t("{name} deleted.", { name: d.name })),
      ),
    );
  };
  const rows = list.data ?? [];
  const current = rows.find((d) => d.key === selected?.key);
  return html`<section>
    <h1>${t("Data sources")}</h1>
    <h2>${t("New data source")}</h2>
    <${SourceForm} key=${formKey} onSaved=${(d: DataSource) => {
      setFormKey(formKey + 1);
      after(t("Data source {name} created.", { name: d.name }));
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      current && selected?.mode === "change"
        ? html`<h2>${t("Change {name}", { name: current.name })}</h2><${SourceForm} initial=${current} key=${current.key} onSaved=${(d: DataSource) => after(t("{name} saved.", { name: d.name }))} />`
        : null
    }
    ${current && selected?.mode === "try" ? html`<${TryIt} source=${current} key=${current.key} />` : null}
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("No data sources yet. Create one above; a form's select field then names it by key.")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Data sources")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Key")}</th><th>${t("Kind")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (
          d,
        ) => html`<tr key=${d.key} data-key=${d.key}><td>${d.name}</td><td><code>${d.key}</code></td><td>${kindLabel(d.kind)}</td>
          <td class="actions-cell"><button type="button" aria-label=${t("Try {name}", { name: d.name })} onClick=${() => setSelected({ key: d.key, mode: "try" })}>${t("Try")}</button>
            <button type="button" aria-label=${t("Change {name}", { name: d.name })} onClick=${() => setSelected({ key: d.key, mode: "change" })}>${t("Change")}</button>
            <button type="button" class="danger" aria-label=${t("Delete {name}", { name: d.name })} onClick=${() => remove(d)}>${t("Delete")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
