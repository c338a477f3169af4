import { useState } from "preact/hooks";
import { api } from "../api";
import { Alert, valueOf } from "../controls";
import { html } from "../html";
import { t } from "../i18n";
import { useAction } from "../use-load";
import { VariablesTable } from "./instance-history";
import { parseTyped, textOf, typeOf, validName, type VarType, varTypes } from "./variable-value";

interface Editing {
  name: string;
  type: VarType;
  text: string;
  isNew: boolean;
}

/** The type select and value field of one variable being edited (a text area for JSON). */
function ValueEditor({ e, onChange }: { e: Editing; onChange(e: Editing): void }) {
  return html`<select aria-label=${t("Type of {variable}", { variable: e.name || t("the new variable") })} value=${e.type}
      onChange=${(ev: Event) => onChange({ ...e, type: valueOf(ev) as VarType })}>
      ${varTypes().map((v) => html`<option value=${v.type}>${v.label}</option>`)}
    </select>
    ${
      e.type === "null"
        ? null
        : e.type === "json"
          ? html`<textarea aria-label=${t("Value of {variable}", { variable: e.name || t("the new variable") })} rows="4" value=${e.text}
              onInput=${(ev: Event) => onChange({ ...e, text: valueOf(ev) })}></textarea>`
          : e.type === "boolean"
            ? html`<select aria-label=${t("Value of {variable}", { variable: e.name || t("the new variable") })} value=${e.text}
                onChange=${(ev: Event) => onChange({ ...e, text: valueOf(ev) })}>
                <option value="">${t("Choose…")}</option><option value="true">true</option><option value="false">false</option>
              </select>`
            : html`<input aria-label=${t("Value of {variable}", { variable: e.name || t("the new variable") })} value=${e.text}
                inputMode=${e.type === "number" ? "decimal" : undefined}
                onInput=${(ev: Event) => onChange({ ...e, text: valueOf(ev) })} />`
    }`;
}

/**
 * The instance's variables; a Manager changes one (typed: text, number, yes/no, date, JSON, empty) or adds one on a
 * running instance through PUT /a/instances/{id}/variables, which merges them. A value that does not read as its type
 * is refused here, under the field, before anything is sent.
 */
export function InstanceVariables({
  id,
  variables,
  editable,
  onDone,
}: {
  id: string;
  variables: Record<string, unknown>;
  editable: boolean;
  onDone(message: string): void;
}) {
  const [editing, setEditing] = useState<Editing | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { error, run } = useAction();
  if (!editable) return html`<${VariablesTable} variables=${variables} />`;
  const start = (name: string, isNew = false) => {
    setProblem(null);
    setEditing({ name, type: isNew ? "string" : typeOf(variables[name]), text: textOf(variables[name]), isNew });
  };
  const save = (e: Event) => {
    e.preventDefault();
    if (!editing) return;
    const name = editing.name.trim();
    if (!validName(name)) return setProblem(t("A name starts with a letter and has only letters, digits or _."));
    const parsed = parseTyped(editing.type, editing.text);
    if ("error" in parsed) return setProblem(parsed.error);
    setProblem(null);
    return run(() =>
      api("PUT", `/a/instances/${id}/variables`, { variables: { [name]: parsed.value } }).then(() => {
        setEditing(null);
        onDone(t("Variable {name} saved.", { name }));
      }),
    );
  };
  const names = Object.keys(variables).sort();
  const form = (e: Editing) => html`<form class="var-edit" onSubmit=${save}>
    ${
      e.isNew
        ? html`<label for="new-var">${t("Name")}</label>
          <input id="new-var" value=${e.name} onInput=${(ev: Event) => setEditing({ ...e, name: valueOf(ev) })} />`
        : null
    }
    <${ValueEditor} e=${e} onChange=${setEditing} />
    <button type="submit">${e.name ? t("Save {variable}", { variable: e.name }) : t("Save variable")}</button>
    <button type="button" onClick=${() => setEditing(null)}>${t("Cancel")}</button>
    ${problem ? html`<p class="error" role="alert">${problem}</p>` : null}
  </form>`;
  return html`<div>
    <${Alert} error=${error} />
    ${names.length === 0 ? html`<p>${t("No variables.")}</p>` : null}
    <div class="scroll"><table class="grid variables"><caption class="sr-only">${t("Variables")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Value")}</th><th><span class="sr-only">${t("Actions")}</span></th></tr></thead>
      <tbody>${names.map(
        (n) => html`<tr key=${n} data-variable=${n}><th scope="row">${n}</th>
          <td>${
            editing && !editing.isNew && editing.name === n
              ? form(editing)
              : html`<code>${typeof variables[n] === "string" ? variables[n] : JSON.stringify(variables[n])}</code>`
          }</td>
          <td><button type="button" onClick=${() => start(n)} aria-label=${t("Edit {name}", { name: n })}>${t("Edit")}</button></td></tr>`,
      )}</tbody>
    </table></div>
    ${
      editing?.isNew
        ? form(editing)
        : html`<button type="button" onClick=${() => start("", true)}>${t("Add a variable")}</button>`
    }
  </div>`;
}
