import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

export interface Parameter {
  name: string;
  type: "string" | "number" | "boolean" | "json";
  required: boolean;
  secret: boolean;
}
export interface Robot {
  key: string;
  name: string;
  description: string | null;
  parameters: Parameter[];
}

const TYPES = ["string", "number", "boolean", "json"] as const;
const blank = (): Parameter => ({ name: "", type: "string", required: false, secret: false });

/** The parameter definitions of a new robot: one row per parameter, added and removed with buttons. */
function ParameterRows({ rows, onChange }: { rows: Parameter[]; onChange(rows: Parameter[]): void }) {
  const set = (i: number, patch: Partial<Parameter>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return html`<fieldset><legend>${t("Parameters")}</legend>
    ${rows.map(
      (r, i) => html`<div class="row-fields param-row">
        <div class="field"><label for=${`p-name-${i}`}>${t("Parameter {n} name", { n: i + 1 })}</label>
          <input id=${`p-name-${i}`} required value=${r.name} onInput=${(e: Event) => set(i, { name: valueOf(e) })} /></div>
        <div class="field"><label for=${`p-type-${i}`}>${t("Type")}</label>
          <select id=${`p-type-${i}`} value=${r.type} onChange=${(e: Event) => set(i, { type: valueOf(e) as Parameter["type"] })}>
            ${TYPES.map((type) => html`<option value=${type}>${type}</option>`)}</select></div>
        <label class="choice"><input type="checkbox" checked=${r.required} onChange=${(e: Event) => set(i, { required: checkedOf(e) })} /> ${t("required")}</label>
        <label class="choice"><input type="checkbox" checked=${r.secret} onChange=${(e: Event) => set(i, { secret: checkedOf(e) })} /> ${t("secret")}</label>
        <button type="button" aria-label=${t("Remove parameter {n}", { n: i + 1 })} onClick=${() => onChange(rows.filter((_, j) => j !== i))}>${t("Remove")}</button>
      </div>`,
    )}
    <button type="button" onClick=${() => onChange([...rows, blank()])}>${t("Add a parameter")}</button>
  </fieldset>`;
}

function NewRobot({ onCreated }: { onCreated(): void }) {
  const [key, setKey] = useState("");
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [params, setParams] = useState<Parameter[]>([]);
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await api("POST", "/a/robots", {
        key: key.trim(),
        name: name.trim(),
        description: description.trim() || null,
        parameters: params.map((p) => ({ ...p, name: p.name.trim() })),
      });
      setKey("");
      setName("");
      setDescription("");
      setParams([]);
      onCreated();
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-r">
    <h2 id="new-r">${t("New robot")}</h2>
    <${Alert} error=${error} />
    <div class="row-fields">
      <div class="field"><label for="r-key">${t("Key (the topic models name)")}</label>
        <input id="r-key" required pattern="[A-Za-z][A-Za-z0-9_.\\-]*" value=${key} onInput=${(e: Event) => setKey(valueOf(e))} /></div>
      <div class="field"><label for="r-name">${t("Name")}</label>
        <input id="r-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <div class="field"><label for="r-desc">${t("Description")}</label>
        <input id="r-desc" value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
    </div>
    <${ParameterRows} rows=${params} onChange=${setParams} />
    <button type="submit" class="primary">${t("Create robot")}</button>
  </form>`;
}

/** Tenant Admin: the robots (GET /a/robots) and creating one with its parameter definitions. */
export function RobotsPage() {
  const list = useLoad(() => api<Robot[]>("GET", "/a/robots"));
  return html`<section>
    <h1>${t("Robots")}</h1>
    <${NewRobot} onCreated=${list.reload} />
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.length ? html`<p class="empty">${t("No robots yet. Create one above, then configure its parameters; service tasks name it by key.")}</p>` : null}
    <table class="grid"><caption>${t("Robots of this company")}</caption>
      <thead><tr><th>${t("Key")}</th><th>${t("Name")}</th><th>${t("Parameters")}</th><th></th></tr></thead>
      <tbody>${(list.data ?? []).map(
        (r) => html`<tr data-key=${r.key}><td><code>${r.key}</code></td><td>${r.name}</td>
          <td>${r.parameters.map((p) => (p.secret ? t("{name} (secret)", { name: p.name }) : p.name)).join(", ") || "—"}</td>
          <td><a href=${`#/settings/robots/${encodeURIComponent(r.key)}`} aria-label=${t("Configure {key}", { key: r.key })}>${t("Configure")}</a></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
