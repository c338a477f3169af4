import { useState } from "preact/hooks";
import { api, hasRole } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

interface ProcessVariable {
  name: string;
  value: string | null;
  secret: boolean;
  description: string | null;
  updatedAt: string;
}

/**
 * A process's configuration variables (values its steps read by name, not instance variables): an Admin lists them all
 * (`GET .../variables`, secrets masked), a Modeler the non-secret ones (`.../variables/public`). Writing is the
 * Modeler's, a secret the Admin's; a secret's value is typed, never shown.
 */
export function ProcessVariables({ processKey }: { processKey: string }) {
  const admin = hasRole("ADMIN");
  const base = `/a/definitions/${encodeURIComponent(processKey)}/variables`;
  const list = useLoad(() => api<ProcessVariable[]>("GET", admin ? base : `${base}/public`), [processKey]);
  const [name, setName] = useState("");
  const [value, setValue] = useState("");
  const [description, setDescription] = useState("");
  const [secret, setSecret] = useState(false);
  const { error, run } = useAction();
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      await api("PUT", `${base}/${encodeURIComponent(name.trim())}`, {
        value,
        secret,
        description: description.trim() || null,
      });
      setName("");
      setValue("");
      setDescription("");
      setSecret(false);
      list.reload();
    });
  };
  const remove = (v: ProcessVariable) => {
    if (!confirm(t("Delete the configuration variable {name} of {process}?", { name: v.name, process: processKey })))
      return;
    return run(() => api("DELETE", `${base}/${encodeURIComponent(v.name)}`).then(list.reload));
  };
  const edit = (v: ProcessVariable) => {
    setName(v.name);
    setValue(v.value ?? "");
    setDescription(v.description ?? "");
    setSecret(v.secret);
  };
  const rows = list.data ?? [];
  return html`<section aria-labelledby="pv-h">
    <h2 id="pv-h">${t("Configuration variables")}</h2>
    <form class="inline" onSubmit=${save} aria-label=${t("Set a configuration variable")}>
      <${Alert} error=${error} />
      <div class="row-fields">
        <div class="field"><label for="pv-name">${t("Name")}</label>
          <input id="pv-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
        <div class="field"><label for="pv-value">${t("Value")}</label>
          <input id="pv-value" type=${secret ? "password" : "text"} autocomplete="off" value=${value} onInput=${(e: Event) => setValue(valueOf(e))} /></div>
        <div class="field"><label for="pv-desc">${t("Description")}</label>
          <input id="pv-desc" value=${description} onInput=${(e: Event) => setDescription(valueOf(e))} /></div>
      </div>
      ${
        admin
          ? html`<label class="choice"><input type="checkbox" checked=${secret} onChange=${(e: Event) => setSecret(checkedOf(e))} /> ${t("Secret (never shown again)")}</label>`
          : null
      }
      <button type="submit" class="primary">${t("Set variable")}</button>
    </form>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("No configuration variables. Set one above: the process's steps read it by name.")}</p>` : null}
    ${!admin ? html`<p class="hint">${t("Secret ones are listed to Admins only.")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Configuration variables of {process}", { process: processKey })}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Value")}</th><th>${t("Description")}</th><th>${t("Changed")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (v) => html`<tr key=${v.name} data-name=${v.name}><td><code>${v.name}</code></td>
          <td>${v.secret ? html`<span class="masked" aria-label=${t("secret, not shown")}>•••••••• <small>${t("secret")}</small></span>` : html`<code>${v.value}</code>`}</td>
          <td>${v.description ?? ""}</td><td>${when(v.updatedAt)}</td>
          <td class="actions-cell"><button type="button" aria-label=${t("Change {name}", { name: v.name })} onClick=${() => edit(v)}>${t("Change")}</button>
            <button type="button" class="danger" aria-label=${t("Delete {name}", { name: v.name })} onClick=${() => remove(v)}>${t("Delete")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
