import { useState } from "preact/hooks";
import { html } from "./html";
import { t } from "./i18n";

/** What an input, select or textarea holds, from its event. */
export const valueOf = (e: Event) => (e.currentTarget as HTMLInputElement).value;
export const checkedOf = (e: Event) => (e.currentTarget as HTMLInputElement).checked;

/** A refusal to show, or nothing. */
export function Alert({ error }: { error: string | null | undefined }) {
  return error ? html`<div class="alert" role="alert">${error}</div>` : null;
}

/**
 * A secret the API returns once (an API key, a webhook's signing secret): shown in a read-only field with a copy
 * button, and a reminder that it cannot be read again.
 */
export function ShownOnce({ label, value, id }: { label: string; value: string; id: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard
      ?.writeText(value)
      .then(() => setCopied(true))
      .catch(() => setCopied(false));
  return html`<div class="notice once" role="status">
    <label for=${id}>${label}</label>
    <p>${t("Copy it now: it is shown only this once.")}</p>
    <div class="once-row">
      <input id=${id} readonly value=${value} onFocus=${(e: Event) => (e.currentTarget as HTMLInputElement).select()} />
      <button type="button" onClick=${copy}>${copied ? t("Copied") : t("Copy")}</button>
    </div>
  </div>`;
}
