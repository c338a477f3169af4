import { useState } from "preact/hooks";
import { ApiError } from "../api";
import { html } from "../html";
import { t } from "../i18n";
import { AiSuggest, type Suggestion } from "./ai-suggest";
import { FieldInput } from "./field-input";
import {
  type Field,
  fieldsOf,
  initialValues,
  type Option,
  parseValue,
  problems,
  type Raw,
  refusalSummary,
  shown,
  submission,
  type Values,
} from "./model";

export interface FormProps {
  schema: unknown;
  saved?: Values;
  instanceId?: string;
  submitLabel: string;
  /** Sends the values; an ApiError it throws is shown (its fieldErrors on the fields). */
  onSubmit(values: Values): Promise<void>;
  /** Asks for AI suggestions with the form as it stands (a task's ai-suggest); absent, no suggestion panel. */
  suggest?(draft: Values): Promise<Suggestion[]>;
}

const idOf = (key: string) => `f-${key.replace(/[^A-Za-z0-9_-]/g, "_")}`;
const readable = (m: string) => (m === "required" ? t("This field is required.") : m);

interface Ctx {
  values: Values;
  errors: Record<string, string>;
  /** Bumped when a value is set from outside the control (a suggestion): the control starts again from the value. */
  revs: Record<string, number>;
  instanceId?: string;
  set(key: string, value: unknown, formatError?: string): void;
}

function Label({ field, id }: { field: Field; id: string }) {
  return html`<label for=${id} id=${`${id}-label`}>${field.label ?? field.key}${
    field.required
      ? html`<span class="req" aria-hidden="true"> *</span><span class="sr-only"> ${t("(required)")}</span>`
      : null
  }</label>`;
}

function Row({ field, ctx, scope, errorKey }: { field: Field; ctx: Ctx; scope: Values; errorKey: string }) {
  const id = idOf(errorKey);
  const error = ctx.errors[errorKey];
  const parse = (raw: Raw, options?: Option[]) => {
    const p = parseValue(field, raw, options);
    ctx.set(field.key as string, p.value, p.error);
  };
  return html`<div class=${`field field-${field.type}${error ? " invalid" : ""}`}>
    <${Label} field=${field} id=${id} />
    <${FieldInput} key=${ctx.revs[errorKey] ?? 0} field=${field} id=${id} value=${scope[field.key as string]} error=${error}
      instanceId=${ctx.instanceId} onRaw=${parse} onValue=${(v: unknown) => ctx.set(field.key as string, v)} />
    ${field.help ? html`<small id=${`${id}-help`}>${field.help}</small>` : null}
    ${error ? html`<p class="error" id=${`${id}-err`}>${readable(error)}</p>` : null}
  </div>`;
}

/** A `table` field: one row of inputs per row object, rows added and removed with buttons. */
function Table({ field, ctx }: { field: Field; ctx: Ctx }) {
  const key = field.key as string;
  const rows = (Array.isArray(ctx.values[key]) ? ctx.values[key] : []) as Values[];
  const setRows = (next: Values[]) => ctx.set(key, next);
  const cols = field.columns ?? [];
  return html`<fieldset class="table-field">
    <legend>${field.label ?? key}${field.required ? html`<span class="req"> *</span>` : null}</legend>
    ${rows.map((row, i) => {
      const scope = { ...ctx.values, ...row };
      const rowCtx: Ctx = {
        ...ctx,
        set: (k, v) => setRows(rows.map((r, j) => (j === i ? { ...r, [k]: v } : r))),
      };
      return html`<div class="table-row" role="group" aria-label=${t("Row {n}", { n: i + 1 })}>
        ${cols.filter((c) => shown(c, scope)).map((c) => html`<${Row} field=${c} ctx=${rowCtx} scope=${row} errorKey=${`${key}[${i}].${c.key}`} />`)}
        <button type="button" class="link" onClick=${() => setRows(rows.filter((_, j) => j !== i))}>${t("Remove row {n}", { n: i + 1 })}</button>
      </div>`;
    })}
    <button type="button" onClick=${() => setRows([...rows, {}])}>${t("Add row")}</button>
    ${ctx.errors[key] ? html`<p class="error">${readable(ctx.errors[key])}</p>` : null}
  </fieldset>`;
}

function Fields({ list, ctx }: { list: Field[]; ctx: Ctx }) {
  return list
    .filter((f) => f.type !== "hidden" && shown(f, ctx.values))
    .map((f) => {
      if (f.type === "heading") return html`<h3>${f.label}</h3>`;
      if (f.type === "section")
        return html`<fieldset class="section"><legend>${f.label}</legend><${Fields} list=${f.fields ?? []} ctx=${ctx} /></fieldset>`;
      if (f.type === "table") return html`<${Table} field=${f} ctx=${ctx} />`;
      return html`<${Row} field=${f} ctx=${ctx} scope=${ctx.values} errorKey=${f.key as string} />`;
    });
}

/** A form rendered from a `fields` schema (docs/forms.md): conditions, required marks, errors on the fields. */
export function FormView(props: FormProps) {
  const [values, setValues] = useState<Values>(() => initialValues(props.schema, props.saved));
  const [formatErrors, setFormatErrors] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [revs, setRevs] = useState<Record<string, number>>({});
  const ctx: Ctx = {
    values,
    errors,
    revs,
    instanceId: props.instanceId,
    set(key, value, formatError) {
      setValues((v) => ({ ...v, [key]: value }));
      setFormatErrors((e) => {
        const { [key]: _, ...rest } = e;
        return formatError ? { ...rest, [key]: formatError } : rest;
      });
      setErrors(({ [key]: _, ...rest }) => rest);
      setMessage(null);
    },
  };
  const focusFirst = (keys: string[]) =>
    requestAnimationFrame(() => keys[0] && document.getElementById(idOf(keys[0]))?.focus());
  /** A suggestion's value goes through the field's own parsing when it came as text (a number field given "250"). */
  const applySuggestion = (f: Field, value: unknown) => {
    const key = f.key as string;
    const p = typeof value === "string" && f.type !== "multiselect" ? parseValue(f, value) : { value };
    ctx.set(key, p.value, p.error);
    setRevs((r) => ({ ...r, [key]: (r[key] ?? 0) + 1 }));
  };
  const submit = async (e: Event) => {
    e.preventDefault();
    // Format problems stop the send; required fields are left to the server, whose refusal shows on the fields (by
    // label, in the console's words: see refusalSummary).
    const local = problems(props.schema, values, formatErrors);
    const formatOnly = Object.fromEntries(Object.entries(local).filter(([k]) => formatErrors[k]));
    if (Object.keys(formatOnly).length) {
      setErrors(formatOnly);
      setMessage(t("Please correct the marked fields."));
      return focusFirst(Object.keys(formatOnly));
    }
    setBusy(true);
    setMessage(null);
    try {
      await props.onSubmit(submission(props.schema, values));
    } catch (err) {
      const fe = err instanceof ApiError ? err.fieldErrors : [];
      setErrors(Object.fromEntries(fe.map((f) => [f.field, f.message])));
      setMessage(refusalSummary(props.schema, fe, (err as Error).message));
      focusFirst(fe.map((f) => f.field));
    } finally {
      setBusy(false);
    }
  };
  return html`<form class="task-form" onSubmit=${submit} noValidate>
    ${message ? html`<div class="alert" role="alert">${message}</div>` : null}
    <${Fields} list=${fieldsOf(props.schema)} ctx=${ctx} />
    ${
      props.suggest && fieldsOf(props.schema).length
        ? html`<${AiSuggest} schema=${props.schema} values=${values} request=${props.suggest} apply=${applySuggestion} />`
        : null
    }
    <button type="submit" class="primary" disabled=${busy}>${props.submitLabel}</button>
  </form>`;
}
