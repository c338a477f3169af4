import { FIELD_TYPES } from "../../../../app/services/forms/field-types";
import { conditionSyntaxError } from "../../../../app/services/forms/visibility";
import { checkedOf, valueOf } from "../../controls";
import type { Field } from "../../form/model";
import { html } from "../../html";
import { t } from "../../i18n";

const CHOICES = new Set(["select", "radio", "multiselect"]);
const LAYOUT = new Set(["heading", "section"]);

/** Inline options as the editor shows them: one `value=Label` per line (a plain line is both). */
export function optionsText(options: unknown[] | undefined): string {
  return (options ?? [])
    .map((o) =>
      o !== null && typeof o === "object" && "value" in o
        ? `${String((o as { value: unknown }).value)}=${String((o as { label?: unknown }).label ?? "")}`
        : String(o),
    )
    .join("\n");
}
export function parseOptions(text: string): { value: string; label: string }[] {
  return text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const at = l.indexOf("=");
      return at < 0
        ? { value: l, label: l }
        : { value: l.slice(0, at).trim(), label: l.slice(at + 1).trim() || l.slice(0, at).trim() };
    });
}

/** A field with `patch` applied; an emptied property is removed rather than saved as "". */
export function patched(f: Field, patch: Partial<Field>): Field {
  const out: Record<string, unknown> = { ...f, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === "" || v === false || v === undefined) delete out[k];
  return out as unknown as Field;
}

/**
 * The top-level fields of a `fields` schema, one row each: type, key, label, required, `visibleIf` and inline
 * options, with buttons to move and remove. Properties the row does not show (a section's fields, a table's columns,
 * data sources, document types) are kept as they are; the JSON view edits them.
 */
export function FieldRows({ fields, onChange }: { fields: Field[]; onChange(fields: Field[]): void }) {
  const set = (i: number, patch: Partial<Field>) => onChange(fields.map((f, j) => (j === i ? patched(f, patch) : f)));
  const move = (i: number, by: number) => {
    const next = [...fields];
    const [f] = next.splice(i, 1);
    next.splice(i + by, 0, f);
    onChange(next);
  };
  return html`<ol class="field-rows">
    ${fields.map((f, i) => {
      const n = i + 1;
      const id = (p: string) => `fe-${p}-${i}`;
      // the server refuses a condition that does not parse; say so while it is typed
      const badIf = f.visibleIf ? conditionSyntaxError(f.visibleIf) : null;
      return html`<li class="field-row">
        <fieldset><legend>${t("Field {n}", { n })}${f.key ? `: ${f.key}` : ""}</legend>
        <div class="row-fields">
          <div class="field"><label for=${id("type")}>${t("Type")}</label>
            <select id=${id("type")} value=${f.type} onChange=${(e: Event) => set(i, { type: valueOf(e) })}>
              ${FIELD_TYPES.map((ft) => html`<option value=${ft}>${ft}</option>`)}</select></div>
          ${
            LAYOUT.has(f.type)
              ? null
              : html`<div class="field"><label for=${id("key")}>${t("Key")}</label>
            <input id=${id("key")} required value=${f.key ?? ""} onInput=${(e: Event) => set(i, { key: valueOf(e) })} /></div>`
          }
          <div class="field"><label for=${id("label")}>${t("Label")}</label>
            <input id=${id("label")} value=${f.label ?? ""} onInput=${(e: Event) => set(i, { label: valueOf(e) })} /></div>
          <div class="field"><label for=${id("if")}>${t("Visible if (FEEL)")}</label>
            <input id=${id("if")} value=${f.visibleIf ?? ""} placeholder='kind = "company"' aria-invalid=${badIf ? "true" : undefined}
              aria-describedby=${badIf ? id("if-err") : undefined} onInput=${(e: Event) => set(i, { visibleIf: valueOf(e) })} />
            ${badIf ? html`<p class="error" id=${id("if-err")}>${t("The condition {problem}.", { problem: badIf })}</p>` : null}</div>
        </div>
        ${
          LAYOUT.has(f.type)
            ? null
            : html`<label class="choice"><input type="checkbox" checked=${!!f.required}
          onChange=${(e: Event) => set(i, { required: checkedOf(e) })} /> ${t("Required")}</label>`
        }
        ${
          CHOICES.has(f.type) && !f.dataSource
            ? html`<div class="field"><label for=${id("opts")}>${t("Options (one per line, value=Label)")}</label>
              <textarea id=${id("opts")} rows="3" value=${optionsText(f.options)}
                onChange=${(e: Event) => set(i, { options: parseOptions(valueOf(e)) })} /></div>`
            : null
        }
        <div class="actions">
          <button type="button" aria-label=${t("Move field {n} up", { n })} disabled=${i === 0} onClick=${() => move(i, -1)}>${t("Up")}</button>
          <button type="button" aria-label=${t("Move field {n} down", { n })} disabled=${i === fields.length - 1} onClick=${() => move(i, 1)}>${t("Down")}</button>
          <button type="button" aria-label=${t("Remove field {n}", { n })} onClick=${() => onChange(fields.filter((_, j) => j !== i))}>${t("Remove")}</button>
        </div>
        </fieldset>
      </li>`;
    })}
  </ol>
  <button type="button" onClick=${() => onChange([...fields, { type: "text", key: `field${fields.length + 1}` }])}>${t("Add a field")}</button>`;
}
