import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { when } from "../../format";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { type MailInbox, MailInboxForm } from "./mail-inbox-form";

function signIn(i: MailInbox) {
  if (i.authMethod === "PASSWORD") return html`password in <code>${i.passwordVariable}</code>`;
  const o = i.oauth;
  return html`OAuth2 ${o?.provider?.replace("_", " ").toLowerCase() ?? ""}, ${o?.grant === "CLIENT_CREDENTIALS" ? "client credentials" : "refresh token"}
    ${o?.accessTokenExpiresAt ? html`<br /><small>token valid until ${when(o.accessTokenExpiresAt)}</small>` : null}`;
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
        saved(`${i.name} ${enabled ? "enabled" : "disabled"}.`),
      ),
    );
  const remove = (i: MailInbox) => {
    if (!confirm(`Delete the inbox “${i.name}”? Its mail is no longer read; rules naming it stop matching.`)) return;
    return run(() => api("DELETE", `/a/mail-inboxes/${i.id}`).then(() => saved(`${i.name} deleted.`)));
  };
  const rows = list.data ?? [];
  const edited = rows.find((i) => i.id === editing);
  return html`<section>
    <h1>Mail inboxes</h1>
    <h2>New inbox</h2>
    <${MailInboxForm} key=${formKey} onSaved=${(i: MailInbox) => {
      setFormKey(formKey + 1);
      saved(`Inbox ${i.name} created: the service logged in and reads it every ${i.pollIntervalSeconds} s.`);
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      edited
        ? html`<h2>Change ${edited.name}</h2>
        <${MailInboxForm} initial=${edited} key=${edited.id} onSaved=${(x: MailInbox) => saved(`${x.name} saved.`)} />
        <button type="button" onClick=${() => setEditing(null)}>Cancel</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">No inboxes yet. Connect a mailbox above; then a Modeler writes mail rules that start processes from its messages.</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>Inboxes of this company</caption>
      <thead><tr><th>Name</th><th>Account</th><th>Sign-in</th><th>Status</th><th>Last read</th><th>Actions</th></tr></thead>
      <tbody>${rows.map(
        (
          i,
        ) => html`<tr data-name=${i.name}><td>${i.name}<br /><small>${i.folder}, every ${i.pollIntervalSeconds} s</small></td>
          <td>${i.username}<br /><small>${i.host}:${i.port} (${i.tlsMode})</small></td><td>${signIn(i)}</td>
          <td><span class=${`status ${i.enabled ? i.status : "SUSPENDED"}`}>${i.enabled ? i.status.toLowerCase() : "disabled"}</span>
            ${i.lastError ? html`<br /><small>${i.lastError}</small>` : null}</td>
          <td>${i.lastPollAt ? when(i.lastPollAt) : "not yet"}</td>
          <td class="actions-cell"><button type="button" aria-label=${`Change ${i.name}`} onClick=${() => setEditing(i.id)}>Change</button>
            <button type="button" aria-label=${`${i.enabled ? "Disable" : "Enable"} ${i.name}`} onClick=${() => setEnabled(i, !i.enabled)}>
              ${i.enabled ? "Disable" : "Enable"}</button>
            <button type="button" class="danger" aria-label=${`Delete ${i.name}`} onClick=${() => remove(i)}>Delete</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
