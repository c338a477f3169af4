import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { t } from "../../i18n";

interface SsoConnection {
  id: string;
  name: string;
  issuer: string;
  clientId: string;
  scopes: string[];
  allowedDomains: string[];
  autoProvision: boolean;
  trustEmailClaim: boolean;
  enabled: boolean;
}

const words = (s: string) => s.split(/[\s,]+/).filter(Boolean);

/** Creating (POST) or changing (PATCH; an empty secret keeps the stored one) a connection. */
function SsoForm({ initial, onSaved }: { initial?: SsoConnection; onSaved(c: SsoConnection): void }) {
  const [f, setF] = useState({
    name: initial?.name ?? "",
    issuer: initial?.issuer ?? "",
    clientId: initial?.clientId ?? "",
    clientSecret: "",
    scopes: (initial?.scopes ?? ["email"]).join(" "),
    allowedDomains: (initial?.allowedDomains ?? []).join(" "),
    autoProvision: initial?.autoProvision ?? false,
    trustEmailClaim: initial?.trustEmailClaim ?? false,
  });
  const { error, run } = useAction();
  const id = initial ? "se" : "s";
  const text = (k: keyof typeof f, label: string, extra: Record<string, unknown> = {}) =>
    html`<div class="field"><label for=${`${id}-${k}`}>${label}</label>
      <input id=${`${id}-${k}`} value=${f[k] as string} onInput=${(e: Event) => setF({ ...f, [k]: valueOf(e) })} ...${extra} /></div>`;
  const box = (k: "autoProvision" | "trustEmailClaim", label: string) =>
    html`<label class="choice"><input type="checkbox" checked=${f[k]} onChange=${(e: Event) => setF({ ...f, [k]: checkedOf(e) })} /> ${label}</label>`;
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      const body: Record<string, unknown> = {
        name: f.name.trim(),
        issuer: f.issuer.trim(),
        clientId: f.clientId.trim(),
        scopes: words(f.scopes),
        allowedDomains: words(f.allowedDomains),
        autoProvision: f.autoProvision,
        trustEmailClaim: f.trustEmailClaim,
      };
      if (f.clientSecret) body.clientSecret = f.clientSecret;
      onSaved(
        await api<SsoConnection>(initial ? "PATCH" : "POST", initial ? `/admin/sso/${initial.id}` : "/admin/sso", body),
      );
    });
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? t("Change {name}", { name: initial.name }) : t("New connection")}>
    <${Alert} error=${error} />
    <div class="row-fields">
      ${text("name", t("Name (lower case, shown on the sign-in button)"), { required: true, pattern: "[a-z0-9][a-z0-9\\-]{0,62}" })}
      ${text("issuer", t("Issuer URL"), { required: true, type: "url" })}
      ${text("clientId", t("Client id"), { required: true })}
      ${text("clientSecret", initial ? t("Client secret (empty: keep)") : t("Client secret"), { required: !initial, type: "password", autocomplete: "off" })}
      ${text("scopes", t("Scopes (separated by spaces)"))}
      ${text("allowedDomains", t("E-mail domains allowed (separated by spaces)"), { required: true })}
    </div>
    ${box("autoProvision", t("Create a user on first sign-in (else only existing users get in)"))}
    ${box("trustEmailClaim", t("Trust the e-mail claim without email_verified (Microsoft Entra ID)"))}
    <button type="submit" class="primary">${initial ? t("Save {what}", { what: initial.name }) : t("Create connection")}</button>
  </form>`;
}

/**
 * SA: single sign-on connections (/admin/sso): OpenID providers people sign in with. The server reads the issuer's
 * discovery document before saving (and names what is wrong); the client secret is write-only.
 */
export function SsoConnectionsPage() {
  const list = useLoad(() => api<SsoConnection[]>("GET", "/admin/sso"));
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { error, run } = useAction();
  const after = (message: string) => {
    setEditing(null);
    setDone(message);
    list.reload();
  };
  const setEnabled = (c: SsoConnection, enabled: boolean) =>
    run(() =>
      api("PATCH", `/admin/sso/${c.id}`, { enabled }).then(() =>
        after(enabled ? t("{name} enabled.", { name: c.name }) : t("{name} disabled.", { name: c.name })),
      ),
    );
  const remove = (c: SsoConnection) => {
    if (
      !confirm(
        t("Delete the connection “{name}”? Its sign-in button goes and people using it sign in with a password.", {
          name: c.name,
        }),
      )
    )
      return;
    return run(() => api("DELETE", `/admin/sso/${c.id}`).then(() => after(t("{name} deleted.", { name: c.name }))));
  };
  const rows = list.data ?? [];
  const edited = rows.find((c) => c.id === editing);
  return html`<section>
    <h1>${t("SSO connections")}</h1>
    <p class="hint">${t("Register {address} as the redirect address at the provider.", { address: `${location.origin}/api/auth/sso/callback` })}</p>
    <h2>${t("New connection")}</h2>
    <${SsoForm} key=${formKey} onSaved=${(c: SsoConnection) => {
      setFormKey(formKey + 1);
      after(t("Connection {name} created.", { name: c.name }));
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      edited
        ? html`<h2>${t("Change {name}", { name: edited.name })}</h2><${SsoForm} initial=${edited} key=${edited.id} onSaved=${(c: SsoConnection) => after(t("{name} saved.", { name: c.name }))} />
        <button type="button" onClick=${() => setEditing(null)}>${t("Cancel")}</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${list.data && !rows.length ? html`<p class="empty">${t("No connections yet: everyone signs in with a password. Add your company's OpenID provider above.")}</p>` : null}
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Connections")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Issuer")}</th><th>${t("Client id")}</th><th>${t("Domains")}</th><th>${t("New users")}</th><th>${t("Status")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (c) => html`<tr data-name=${c.name}><td>${c.name}</td><td>${c.issuer}</td><td><code>${c.clientId}</code></td>
          <td>${c.allowedDomains.join(", ")}</td><td>${c.autoProvision ? t("created") : t("must exist")}</td>
          <td><span class=${`status ${c.enabled ? "ACTIVE" : "SUSPENDED"}`}>${c.enabled ? t("enabled") : t("disabled")}</span></td>
          <td class="actions-cell"><button type="button" aria-label=${t("Change {name}", { name: c.name })} onClick=${() => setEditing(c.id)}>${t("Change")}</button>
            <button type="button" aria-label=${c.enabled ? t("Disable {name}", { name: c.name }) : t("Enable {name}", { name: c.name })} onClick=${() => setEnabled(c, !c.enabled)}>
              ${c.enabled ? t("Disable") : t("Enable")}</button>
            <button type="button" class="danger" aria-label=${t("Delete {name}", { name: c.name })} onClick=${() => remove(c)}>${t("Delete")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
