import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";
import { type MailInbox, MailInboxForm } from "./mail-inbox-form";

function signIn(i: MailInbox) {
  if (i.authMethod === "PASSWORD") return html`${t("password in")} <code>${i.passwordVariable}</code>`;
  const o = i.oauth;
  return html`OAuth2 ${o?.provider?.replace("_", " ").toLowerCase() ?? ""}, ${o?.grant === "CLIENT_CREDENTIALS" ? t("client credentials") : t("refresh token")}
    ${o?.accessTokenExpiresAt ? html`<br /><small>${t("token valid until {date}", { date: when(o.accessTokenExpiresAt) })}</small>` : null}`;
}

/**
 * Mail inboxes (Admin; /a/mail-inboxes): the IMAP accounts the service reads for mail rules. Creating and changing one
 * tests the credentials first; the page shows the server's answer. Passwords live in secret tenant variables and OAuth2
 * secrets are write-only, so nothing secret is ever on this page.
 */
export function MailInboxesPage() {
  const list = useLoad(() => api<MailInbox[]>("GET", "/a/mail-inboxes"));
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { error, run } = useAction();
  const saved = (message: string) => {
    setEditing(null);
    setDone(message);
    list.reload();
  };
  const setEnabled = (i: MailInbox, enabled: boolean) =>
    run(() =>
      api("PATCH", `/a/mail-inboxes/${i.id}`, { enabled }).then(() =>
        saved(enabled ? t("{name} enabled.", { name: i.name }) : t("{name} disabled.", { name: i.name })),
      ),
    );
  const remove = (i: MailInbox) => {
    const ask = t("Delete the inbox “{name}”? Its mail is no longer read; rules naming it stop matching.", {
      name: i.name,
    });
    if (!confirm(ask)) return;
    return run(() =>
      api("DELETE", `/a/mail-inboxes/${i.id}`).then(() => saved(t("{name} deleted.", { name: i.name }))),
    );
  };
  const rows = list.data ?? [];
  const edited = rows.find((i) => i.id === editing);
  return html`<section>
    <h1>${t("Mail inboxes")}</h1>
    <h2>${t("New inbox")}</h2>
    <${MailInboxForm} key=${formKey} onSaved=${(i: MailInbox) => {
      setFormKey(formKey + 1);
      saved(
        t("Inbox {name} created: the service logged in and reads it every {seconds} s.", {
          name: i.name,
          seconds: i.pollIntervalSeconds,
        }),
      );
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      edited
        ? html`<h2>${t("Change {name}", { name: edited.name })}</h2>
        <${MailInboxForm} initial=${edited} key=${edited.id} onSaved=${(x: MailInbox) => saved(t("{name} saved.", { name: x.name }))} />
        <button type="button" onClick=${() => setEditing(null)}>${t("Cancel")}</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${t("No inboxes yet. Connect a mailbox above; then a Modeler writes mail rules that start processes from its messages.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Inboxes of this company")}</caption>
      <thead><tr><th>${t("Name")}</th><th>${t("Account")}</th><th>${t("Sign-in")}</th><th>${t("Status")}</th><th>${t("Last read")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (
          i,
        ) => html`<tr data-name=${i.name}><td>${i.name}<br /><small>${t("{folder}, every {seconds} s", { folder: i.folder, seconds: i.pollIntervalSeconds })}</small></td>
          <td>${i.username}<br /><small>${i.host}:${i.port} (${i.tlsMode === "NONE" ? t("no TLS") : i.tlsMode})</small></td><td>${signIn(i)}</td>
          <td><span class=${`status ${i.enabled ? i.status : "SUSPENDED"}`}>${!i.enabled ? t("disabled") : i.status === "ERROR" ? t("error") : t("active")}</span>
            ${i.lastError ? html`<br /><small>${i.lastError}</small>` : null}</td>
          <td>${i.lastPollAt ? when(i.lastPollAt) : t("not yet")}</td>
          <td class="actions-cell"><button type="button" aria-label=${t("Change {name}", { name: i.name })} onClick=${() => setEditing(i.id)}>${t("Change")}</button>
            <button type="button" aria-label=${i.enabled ? t("Disable {name}", { name: i.name }) : t("Enable {name}", { name: i.name })} onClick=${() => setEnabled(i, !i.enabled)}>
              ${i.enabled ? t("Disable") : t("Enable")}</button>
            <button type="button" class="danger" aria-label=${t("Delete {name}", { name: i.name })} onClick=${() => remove(i)}>${t("Delete")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
