import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";
import { type MailRule, MailRuleForm } from "./mail-rule-form";

/** What a rule asks of a mail, in words. */
function matchText(r: MailRule): string {
  const m = r.match;
  const parts = [
    m.from && t("from {value}", { value: String(m.from) }),
    m.to && t("to {value}", { value: String(m.to) }),
    m.subjectContains && t("subject has “{value}”", { value: String(m.subjectContains) }),
    m.subjectRegex && t("subject matches {value}", { value: String(m.subjectRegex) }),
    m.bodyContains && t("text has “{value}”", { value: String(m.bodyContains) }),
    m.hasAttachment === true && t("with an attachment"),
    m.hasAttachment === false && t("without attachments"),
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : t("every mail");
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
        saved(enabled ? t("{name} enabled.", { name: r.name }) : t("{name} disabled.", { name: r.name })),
      ),
    );
  const remove = (r: MailRule) => {
    const ask = t("Delete the mail rule “{name}”? Mail it would match then goes to the next rule, or none.", {
      name: r.name,
    });
    if (!confirm(ask)) return;
    return run(() => api("DELETE", `/a/mail-rules/${r.id}`).then(() => saved(t("{name} deleted.", { name: r.name }))));
  };
  const inboxName = (id: string | null) => (id ? (inboxes.data?.find((i) => i.id === id)?.name ?? id) : t("any inbox"));
  const rows = list.data ?? [];
  const edited = rows.find((r) => r.id === editing);
  return html`<section>
    <h1>${t("Mail rules")}</h1>
    <h2>${t("New rule")}</h2>
    ${inboxes.data && !inboxes.data.length ? html`<p class="hint">${t("No inbox is connected yet: an Admin adds one under Mail inboxes.")}</p>` : null}
    <${MailRuleForm} key=${formKey} onSaved=${(r: MailRule) => {
      setFormKey(formKey + 1);
      saved(t("Rule {name} created.", { name: r.name }));
    }} />
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    ${
      edited
        ? html`<h2>${t("Change {name}", { name: edited.name })}</h2>
        <${MailRuleForm} initial=${edited} key=${edited.id} onSaved=${(r: MailRule) => saved(t("{name} saved.", { name: r.name }))} />
        <button type="button" onClick=${() => setEditing(null)}>${t("Cancel")}</button>`
        : null
    }
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${t("No mail rules yet. Create one above: the first rule a message matches starts its process.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${t("Rules, in the order they are tried")}</caption>
      <thead><tr><th>${t("Order")}</th><th>${t("Name")}</th><th>${t("Mail")}</th><th>${t("Starts")}</th><th>${t("Status")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${rows.map(
        (r) => html`<tr data-name=${r.name}><td>${r.priority}</td><td>${r.name}</td>
          <td>${inboxName(r.inboxId)}: ${matchText(r)}</td>
          <td><code>${r.definitionKey}</code>${r.correlate ? html`<br /><small>${t("or delivers to a running one")}</small>` : null}</td>
          <td><span class=${`status ${r.enabled ? "ACTIVE" : "SUSPENDED"}`}>${r.enabled ? t("enabled") : t("disabled")}</span></td>
          <td class="actions-cell"><button type="button" aria-label=${t("Change {name}", { name: r.name })} onClick=${() => setEditing(r.id)}>${t("Change")}</button>
            <button type="button" aria-label=${r.enabled ? t("Disable {name}", { name: r.name }) : t("Enable {name}", { name: r.name })} onClick=${() => setEnabled(r, !r.enabled)}>
              ${r.enabled ? t("Disable") : t("Enable")}</button>
            <button type="button" class="danger" aria-label=${t("Delete {name}", { name: r.name })} onClick=${() => remove(r)}>${t("Delete")}</button></td></tr>`,
      )}</tbody></table>`
        : null
    }
  </section>`;
}
