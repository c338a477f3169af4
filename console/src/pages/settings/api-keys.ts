import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, ShownOnce, checkedOf, valueOf } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { locale, t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

interface ApiKey {
  id: string;
  name: string;
  prefix: string;
  scopes: string[];
  rateLimitPerMinute: number;
  createdAt: string;
}

const SCOPES = [
  ["read", () => t("read (GET)")],
  ["write", () => t("write (POST, PUT, PATCH, DELETE)")],
] as const;

/** Tenant Admin: the tenant's API keys (GET /a/api-keys); a new key is shown once; revoking deletes it. */
export function ApiKeysPage() {
  const list = useLoad(() => api<ApiKey[]>("GET", "/a/api-keys"));
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<string[]>(["read"]);
  const [limit, setLimit] = useState("100");
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const { error, run } = useAction();
  const toggle = (scope: string) => (e: Event) =>
    setScopes(checkedOf(e) ? [...scopes, scope] : scopes.filter((s) => s !== scope));
  const create = (e: Event) => {
    e.preventDefault();
    setCreated(null);
    return run(async () => {
      const k = await api<ApiKey & { key: string }>("POST", "/a/api-keys", {
        name: name.trim(),
        scopes,
        rateLimitPerMinute: Number(limit),
      });
      setCreated({ name: k.name, key: k.key });
      setName("");
      list.reload();
    });
  };
  const revoke = (k: ApiKey) => {
    if (!confirm(t("Revoke the key “{name}”? Programs using it stop working at once.", { name: k.name }))) return;
    return run(() => api("DELETE", `/a/api-keys/${k.id}`).then(list.reload));
  };
  return html`<section>
    <h1>${t("API keys")}</h1>
    <form class="inline" onSubmit=${create} aria-labelledby="new-k">
      <h2 id="new-k">${t("New key")}</h2>
      <${Alert} error=${error} />
      ${created ? html`<${ShownOnce} id="k-created" label=${t("Key “{name}”", { name: created.name })} value=${created.key} />` : null}
      <div class="row-fields">
        <div class="field"><label for="k-name">${t("Name")}</label>
          <input id="k-name" required value=${name} onInput=${(e: Event) => setName(valueOf(e))} /></div>
        <div class="field"><label for="k-limit">${t("Requests per minute (0 = unlimited)")}</label>
          <input id="k-limit" type="number" min="0" step="1" required value=${limit} onInput=${(e: Event) => setLimit(valueOf(e))} /></div>
      </div>
      <fieldset><legend>${t("Scopes")}</legend>
        ${SCOPES.map(
          ([s, label]) =>
            html`<label class="choice"><input type="checkbox" checked=${scopes.includes(s)} onChange=${toggle(s)} /> ${label()}</label>`,
        )}
      </fieldset>
      <button type="submit" class="primary">${t("Create key")}</button>
    </form>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !list.data.length ? html`<p class="empty">${t("No API keys yet. Create one above for each program that calls the API; its key is shown once.")}</p>` : null}
    <table class="grid"><caption>${t("Keys of this company")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Prefix")}</th><th>${t("Scopes")}</th><th>${t("Per minute")}</th><th>${t("Created")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${(list.data ?? []).map(
        (
          k,
        ) => html`<tr data-name=${k.name}><td>${k.name}</td><td><code>${k.prefix}…</code></td><td>${k.scopes.join(", ")}</td>
          <td>${k.rateLimitPerMinute ? k.rateLimitPerMinute.toLocaleString(locale()) : t("unlimited")}</td><td>${when(k.createdAt)}</td>
          <td><button type="button" aria-label=${t("Revoke {name}", { name: k.name })} onClick=${() => revoke(k)}>${t("Revoke")}</button></td></tr>`,
      )}</tbody>
    </table>
  </section>`;
}
