import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { html } from "../../html";
import { Pending, useAction, useLoad } from "../../use-load";
import { type MailRule, MailRuleForm } from "./mail-rule-form";

/** What a rule asks of a mail, in words. */
function matchText(r: MailRule): string {
  const m = r.match;
  const parts = [
    m.from && `from ${m.from}`,
    m.to && `to ${m.to}`,
    m.subjectContains && `subject has “${m.subjectContains}”`,
    m.subjectRegex && `subject matches ${m.subjectRegex}`,
    m.bodyContains && `text has “${m.bodyContains}”`,
    m.hasAttachment === true && "with an attachment",
    m.hasAttachment === false && "without attachments",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "every mail";
}

/**
 * Mail rules (Modeler; /a/mail-rules), in the order they are tried: which mail starts which process. Create, change,
 * enable or disable, delete (confirmed). What each message met is on the Mail deliveries page.
 */
export function MailRulesPage() {
  const list = useLoad(() => api<MailRule[]>("GET", "/a/mail-rules"));
  const inboxes = useLoad(() => api<{ id: string; name: string }[]>("GET", "/a/mail-rules/inboxes"));
  const [editing, setEditing] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { error, run } = useAction();
  const saved = (message: string) => {
    setEditing(null);
    setDone(message);
    list.reload();
  };
  const setEnabled = (r: MailRule, enabled: boolean) =>
    run(() =>
      api("PATCH", `/a/mail-rules/${r.id}`, { enabled }).then(() =>
        saved(`${r.name} ${enabled ? "enabled" : "disabled"}.`),
      ),
    );
  const remove = (r: MailRule) => {
    if (!confirm(`Delete the mail rule “${r.name}”? Mail it would match then goes to the next rule, or none.`)) return;
    return run(() => api("DELETE", `/a/mail-rules/${r.id}`).then(() => saved(`${r.name} deleted.`)));
  };
  const inboxName = (id: string | null) => (id ? (inboxes.data?.find((i) => i.id === id)?.name ?? id) : "any inbox");
  const rows = list.data ?? [];
  const edited = rows.find((r) => r.id === editing);
  return html`<section>
    <h1>Mail rules</h1>
    <h2>New rule</h2>
    ${inboxes.data && !inboxes.data.length ? html`<p class="hint">No inbox is connected yet: an Admin adds one under Mail inboxes.</p>` : null}
    <${MailRuleForm} key=${formKey} onSaved=${(r: MailRule) => {
      setFormKey(formKey + 1);
      saved(`Rule ${r.name} created.`);
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      edited
        ? html`<h2>Change ${edited.name}</h2>
        <${MailRuleForm} initial=${edited} key=${edited.id} onSaved=${(r: MailRule) => saved(`${r.name} saved.`)} />
        <button type="button" onClick=${() => setEditing(null)}>Cancel</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">No mail rules yet. Create one above: the first rule a message matches starts its process.</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>Rules, in the order they are tried</caption>
      <thead><tr><th>Order</th><th>Name</th><th>Mail</th><th>Starts</th><th>Status</th><th>Actions</th></tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr data-name=${r.name}><td>${r.priority}</td><td>${r.name}</td>
          <td>${inboxName(r.inboxId)}: ${matchText(r)}</td>
          <td><code>${r.definitionKey}</code>${r.correlate ? html`<br /><small>or delivers to a running one</small>` : null}</td>
          <td><span class=${`status ${r.enabled ? "ACTIVE" : "SUSPENDED"}`}>${r.enabled ? "enabled" : "disabled"}</span></td>
          <td class="actions-cell"><button type="button" aria-label=${`Change ${r.name}`} onClick=${() => setEditing(r.id)}>Change</button>
            <button type="button" aria-label=${`${r.enabled ? "Disable" : "Enable"} ${r.name}`} onClick=${() => setEnabled(r, !r.enabled)}>
              ${r.enabled ? "Disable" : "Enable"}</button>
            <button type="button" class="danger" aria-label=${`Delete ${r.name}`} onClick=${() => remove(r)}>Delete</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
