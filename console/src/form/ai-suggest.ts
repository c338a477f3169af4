import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { html } from "../html";
import { t } from "../i18n";
import { displayValue, type Field, fieldsOf, valueFields, type Values } from "./model";

/** An item of POST /a/tasks/{id}/ai-suggest. */
export interface Suggestion {
  field: string;
  value: unknown;
  reason: string;
  /** The field held a different value when the server looked (a client never applies it on its own). */
  conflictsWithCurrent: boolean;
}

const blank = (v: unknown) =>
  v === undefined || v === null || (typeof v === "string" && v.trim() === "") || (Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) =>
  typeof a === "object" || typeof b === "object" ? JSON.stringify(a) === JSON.stringify(b) : String(a) === String(b);

/**
 * Whether applying the suggestion would overwrite something: the server's flag, or a value typed since the request
 * that differs (a checkbox's default false counts as empty).
 */
export function conflicts(s: Suggestion, field: Field | undefined, current: unknown): boolean {
  if (s.conflictsWithCurrent) return true;
  if (blank(current) || (field?.type === "checkbox" && current === false)) return false;
  return !same(current, s.value);
}

/** Set once the server says no model is active: the button stays hidden for the rest of the page's life. */
let noModel = false;

type Decision = "applied" | "kept";

/**
 * AI suggestions for the form on screen: the draft goes to the server, each suggestion is listed with its reason, and
 * the person applies them. One that would replace a value (the server's conflictsWithCurrent, or a value typed since)
 * is never applied without a choice for that field: "Use suggestion" or "Keep current".
 */
export function AiSuggest({
  schema,
  values,
  request,
  apply,
}: {
  schema: unknown;
  values: Values;
  request(draft: Values): Promise<Suggestion[]>;
  apply(field: Field, value: unknown): void;
}) {
  const [hidden, setHidden] = useState(noModel);
  const [list, setList] = useState<Suggestion[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const [decided, setDecided] = useState<Record<string, Decision>>({});
  if (hidden) return null;
  const fields = new Map(valueFields(fieldsOf(schema)).map(({ field }) => [field.key as string, field]));
  const ask = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const got = await request(values);
      setList(got);
      setDecided({});
      if (got.length === 0) setMessage(t("No suggestion for this form."));
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        noModel = true;
        setHidden(true);
        return;
      }
      setMessage((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const use = (s: Suggestion) => {
    const f = fields.get(s.field);
    if (f) apply(f, s.value);
    setDecided((d) => ({ ...d, [s.field]: "applied" }));
  };
  const keep = (s: Suggestion) => setDecided((d) => ({ ...d, [s.field]: "kept" }));
  const open = (list ?? []).filter((s) => !decided[s.field]);
  const free = open.filter((s) => !conflicts(s, fields.get(s.field), values[s.field]));
  const show = (s: Suggestion, v: unknown) => {
    const f = fields.get(s.field);
    const text = Array.isArray(v) ? v.join(", ") : f ? displayValue(f, v) : String(v);
    return text === "" ? t("(empty)") : text;
  };
  return html`<section class="ai-suggest" aria-labelledby="ai-h">
    <h2 id="ai-h">${t("Suggestions")}</h2>
    <button type="button" onClick=${ask} disabled=${busy}>${busy ? t("Asking…") : t("Suggest values (AI)")}</button>
    ${message ? html`<p class="muted" role="status">${message}</p>` : null}
    ${
      free.length > 1
        ? html`<button type="button" onClick=${() => free.forEach(use)}>${t("Apply all without conflicts ({n})", { n: free.length })}</button>`
        : null
    }
    ${
      list?.length
        ? html`<ul class="suggestions">${list.map((s) => {
            const f = fields.get(s.field);
            const label = f?.label ?? s.field;
            const state = decided[s.field];
            const clash = !state && conflicts(s, f, values[s.field]);
            return html`<li key=${s.field} data-field=${s.field} class=${clash ? "conflict" : ""}>
              <strong>${label}</strong>: <span class="suggested">${show(s, s.value)}</span>
              <p class="reason">${s.reason}</p>
              ${
                state
                  ? html`<p class="muted">${state === "applied" ? t("Applied.") : t("Kept the current value.")}</p>`
                  : clash
                    ? html`<p class="warn">${t("Differs from the current value “{value}”. Choose:", { value: show(s, values[s.field]) })}</p>
                      <div class="row-actions" role="group" aria-label=${t("Conflict on {field}", { field: label })}>
                        <button type="button" onClick=${() => use(s)}>${t("Use suggestion for {field}", { field: label })}</button>
                        <button type="button" onClick=${() => keep(s)}>${t("Keep current {field}", { field: label })}</button>
                      </div>`
                    : html`<button type="button" onClick=${() => use(s)}>${t("Apply to {field}", { field: label })}</button>`
              }
            </li>`;
          })}</ul>`
        : null
    }
  </section>`;
}
