import { useService } from "bpmn-js-properties-panel";
import { html } from "../../html";
import type { Choice, ListName, PickerData } from "./picker-data";
import { t } from "../../i18n";

/** The element's business object, as the panel hands it to entries. */
// biome-ignore lint/suspicious/noExplicitAny: bpmn-js's moddle objects are untyped
export type Bo = any;
export interface Shape {
  businessObject: Bo;
}
interface Modeling {
  updateProperties(element: Shape, props: Record<string, unknown>): void;
}

/** What a picker entry is given by the provider (the panel passes each entry's fields as props). */
export interface PickerProps {
  element: Shape;
  id: string;
  label: string;
  list: ListName;
  data: PickerData | null;
  /** The key the element names now. */
  get(bo: Bo): string | undefined;
  /** The attributes to write for a key ("" clears). */
  write(key: string, bo: Bo): Record<string, unknown>;
  hint?: string;
}

const inputId = (id: string) => `bio-properties-panel-${id}`;

function listHint(p: PickerProps, choices: Choice[]): string {
  if (!p.data || p.data.pending.has(p.list)) return t("Loading the list…");
  if (p.data.refused.has(p.list)) return t("Your role may not list these; type the key.");
  if (!choices.length) return t("None yet; type a key.");
  return t("{n} to choose from, or type a key.", { n: choices.length });
}

/**
 * A text field with the tenant's choices as suggestions (a `datalist`): the key is picked or typed, and written when
 * the field is left or Enter is pressed (`change`), the way the panel's own text fields commit.
 */
export function PickerEntry(p: PickerProps) {
  const modeling = useService<Modeling>("modeling");
  const choices = p.data?.[p.list] ?? [];
  const value = p.get(p.element.businessObject) ?? "";
  const commit = (e: Event) => {
    const next = (e.target as HTMLInputElement).value.trim();
    if (next !== value) modeling.updateProperties(p.element, p.write(next, p.element.businessObject));
  };
  return html`<div class="bio-properties-panel-entry" data-entry-id=${p.id}>
    <div class="bio-properties-panel-textfield">
      <label for=${inputId(p.id)} class="bio-properties-panel-label">${p.label}</label>
      <input id=${inputId(p.id)} class="bio-properties-panel-input" list=${`${inputId(p.id)}-choices`} value=${value}
        autocomplete="off" spellcheck=${false} aria-describedby=${`${inputId(p.id)}-hint`} onChange=${commit}
        onKeyDown=${(e: KeyboardEvent) => e.key === "Enter" && commit(e)} />
      <datalist id=${`${inputId(p.id)}-choices`}>
        ${choices.map((c) => html`<option value=${c.key} label=${c.name === c.key ? c.key : `${c.name} (${c.key})`}></option>`)}
      </datalist>
    </div>
    <div class="bio-properties-panel-description" id=${`${inputId(p.id)}-hint`}>
      ${p.hint ? `${p.hint} ` : ""}${listHint(p, choices)}
    </div>
  </div>`;
}

const splitKeys = (s: string | undefined) =>
  (s ?? "")
    .split(",")
    .map((k) => k.trim())
    .filter(Boolean);

/**
 * The process roles as checkboxes over `camunda:candidateGroups` (a comma-separated list): ticking one adds its key,
 * clearing removes it, and groups that are not roles (typed in the Camunda field) are kept.
 */
export function RolesEntry(p: { element: Shape; id: string; data: PickerData | null }) {
  const modeling = useService<Modeling>("modeling");
  const bo = p.element.businessObject;
  const current = splitKeys(bo.get("camunda:candidateGroups"));
  const roles = p.data?.roles ?? [];
  const toggle = (key: string, on: boolean) => {
    const next = on ? [...current.filter((k) => k !== key), key] : current.filter((k) => k !== key);
    modeling.updateProperties(p.element, { "camunda:candidateGroups": next.length ? next.join(",") : undefined });
  };
  const none =
    !p.data || p.data.pending.has("roles")
      ? t("Loading the process roles…")
      : p.data.refused.has("roles")
        ? t("Your role may not list the process roles.")
        : t("No process role yet: create them on the Process roles page, or type groups in Candidate groups.");
  return html`<div class="bio-properties-panel-entry" data-entry-id=${p.id}>
    <fieldset class="pms-roles">
      <legend class="bio-properties-panel-label">${t("Offer to process roles (candidate groups)")}</legend>
      ${
        roles.length
          ? roles.map(
              (r) => html`<label class="pms-role"><input type="checkbox" checked=${current.includes(r.key)}
                onChange=${(e: Event) => toggle(r.key, (e.target as HTMLInputElement).checked)} />
                ${r.name === r.key ? r.key : `${r.name} (${r.key})`}</label>`,
            )
          : html`<p class="bio-properties-panel-description">${none}</p>`
      }
    </fieldset>
  </div>`;
}
