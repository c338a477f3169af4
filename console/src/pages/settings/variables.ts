import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { type Person, Who } from "../../people";
import { Pending, useAction, useLoad } from "../../use-load";

interface Variable {
  name: string;
  value: string | null;
  secret: boolean;
  updatedAt: string;
  updatedBy: string | null;
  updatedByUser: Person | null;
}

/** The fields of a value: a secret is typed into a password field and never read back. */
function ValueFields({
  id,
  value,
  secret,
  onValue,
  onSecret,
}: {
  id: string;
  value: string;
  secret: boolean;
  onValue(v: string): void;
  onSecret(s: boolean): void;
}) {
  return html`<div class="field"><label for=${`${id}-value`}>${t("Value")}</label>
      <input id=${`${id}-value`} type=${secret ? "password" : "text"} autocomplete="off" required value=${value}
        onInput=${(e: Event) => onValue(valueOf(e))} /></div>
    <label class="choice"><input type="checkbox" checked=${secret} onChange=${(e: Event) => onSecret(checkedOf(e))} />
      ${t("Secret (stored sealed, never shown again)")}</label>`;
}

function NewVariable({ onSaved }: { onSaved(): void }) {
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [secret, setSecret] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    setDone(null);
    return run(async () => {
      await api("POST", "/a/variables", { name: name.trim(), value, secret });
      setDone(t("Variable {name} created.", { name: name.trim() }));
      setName("");
      setValue("");
      setSecret(false);
      onSaved();
    });
  };
  return html`<form class="inline" onSubmit=${create} aria-labelledby="new-v">
    <h2 id="new-v">${t("New variable")}</h2>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <div class="row-fields">
      <div class="field"><label for="v-name">${t("Name")}</label>
        <input id="v-name" required pattern="[A-Za-z_][A-Za-z0-9_.\\-]{0,99}" value=${name}
          onInput=${(e: Event) => setName(valueOf(e))} /></div>
      <${ValueFields} id="v" value=${value} secret=${secret} onValue=${setValue} onSecret=${setSecret} />
    </div>
    <button type="submit" class="primary">${t("Create variable")}</button>
  </form>`;
}

/** Replaces a variable's value (PUT): a secret's current value is never shown, only replaced. */
function EditVariable({ v, onDone }: { v: Variable; onDone(saved: boolean): void }) {
  const [value, setValue] = useState(v.value ?? "");
  const [secret, setSecret] = useState(v.secret);
  const { error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    return run(() =>
      api("PUT", `/a/variables/${encodeURIComponent(v.name)}`, { value, secret }).then(() => onDone(true)),
    );
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${t("Change {name}", { name: v.name })}>
    <${Alert} error=${error} />
    ${v.secret ? html`<p class="hint">${t("The current secret cannot be read; type the new one.")}</p>` : null}
    <${ValueFields} id="edit" value=${value} secret=${secret} onValue=${setValue} onSecret=${setSecret} />
    <div class="row-actions"><button type="submit" class="primary">${t("Save {name}", { name: v.name })}</button>
      <button type="button" onClick=${() => onDone(false)}>${t("Cancel")}</button></div>
  </form>`;
}

/**
 * Tenant variables (GET /a/variables; Modeler reads, Admin writes): values by name for processes and robots, and
 * secrets, whose value no answer carries: the table masks them and editing one means typing a new value.
 */
export function VariablesPage() {
  const list = useLoad(() => api<Variable[]>("GET", "/a/variables"));
  const admin = hasRole("ADMIN");
  const [editing, setEditing] = useState<string | null>(null);
  const { error, run } = useAction();
  const remove = (v: Variable) => {
    if (
      !confirm(
        t("Delete the variable {name}? Processes and robots reading it get nothing from now on.", { name: v.name }),
      )
    )
      return;
    return run(() => api("DELETE", `/a/variables/${encodeURIComponent(v.name)}`).then(list.reload));
  };
  const rows = list.data ?? [];
  return html`<section>
    <h1>${t("Variables")}</h1>
    ${admin ? html`<${NewVariable} onSaved=${list.reload} />` : html`<p class="hint">${t("Only an Admin adds or changes variables.")}</p>`}
    <${Alert} error=${error} />
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${admin ? t("No variables yet. Add one above: a value that processes and robots read by name, or a secret (a password, a token) kept sealed.") : t("No variables yet. An Admin adds them.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Variables of this company")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Value")}</th><th>${t("Last changed")}</th>${admin ? html`<th>${t("Actions")}</th>` : null}</tr></thead>
      <tbody>${rows.map(
        (v) => html`<tr key=${v.name} data-name=${v.name}><td><code>${v.name}</code></td>
          <td>${v.secret ? html`<span class="masked" aria-label=${t("secret, not shown")}>•••••••• <small>${t("secret")}</small></span>` : html`<code>${v.value}</code>`}</td>
          <td>${t("{date} by", { date: when(v.updatedAt) })} <${Who} id=${v.updatedBy} person=${v.updatedByUser} none=${t("the system")} /></td>
          ${
            admin
              ? html`<td class="actions-cell">${
                  editing === v.name
                    ? html`<${EditVariable} v=${v} onDone=${(saved: boolean) => {
                        setEditing(null);
                        if (saved) list.reload();
                      }} />`
                    : html`<button type="button" aria-label=${t("Change {name}", { name: v.name })} onClick=${() => setEditing(v.name)}>${t("Change")}</button>
                  <button type="button" class="danger" aria-label=${t("Delete {name}", { name: v.name })} onClick=${() => remove(v)}>${t("Delete")}</button>`
                }</td>`
              : null
          }</tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
