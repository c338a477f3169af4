import { useState } from "preact/hooks";
import { ApiError, api } from "../../api";
import { Alert, checkedOf, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useLoad } from "../../use-load";
import type { Parameter, Robot } from "./robots";

interface Variable {
  name: string;
  secret: boolean;
}
type Raw = Record<string, string | boolean>;

/** The stored value as the control shows it: a secret's variable name, JSON as text, the rest as typed. */
export function toRaw(p: Parameter, v: unknown): string | boolean {
  if (p.secret) return (v as { variable?: string } | null)?.variable ?? "";
  if (p.type === "boolean") return v === true;
  if (v === undefined || v === null) return "";
  return p.type === "json" ? JSON.stringify(v, null, 2) : String(v);
}

/** What the API receives: a secret as {variable}, numbers and JSON parsed; empty means "not set". */
export function fromRaw(p: Parameter, raw: string | boolean): { value?: unknown; error?: string } {
  if (p.type === "boolean" && !p.secret) return { value: raw === true };
  const text = String(raw).trim();
  if (text === "") return {};
  if (p.secret) return { value: { variable: text } };
  if (p.type === "number")
    return Number.isFinite(Number(text)) ? { value: Number(text) } : { error: t("Enter a number.") };
  if (p.type === "json") {
    try {
      return { value: JSON.parse(text) };
    } catch {
      return { error: t("Enter valid JSON.") };
    }
  }
  return { value: text };
}

interface InputProps {
  p: Parameter;
  raw: string | boolean;
  vars: Variable[];
  invalid: boolean;
  set(v: string | boolean): void;
}

function Input({ p, raw, vars, invalid, set }: InputProps) {
  const id = `c-${p.name}`;
  const a11y = {
    "aria-invalid": invalid ? "true" : undefined,
    "aria-describedby": [p.secret ? `${id}-hint` : "", invalid ? `${id}-err` : ""].join(" ").trim() || undefined,
  };
  if (p.secret)
    return html`<select id=${id} ...${a11y} value=${raw} onChange=${(e: Event) => set(valueOf(e))}>
      <option value="">${t("— not set —")}</option>
      ${vars.map((v) => html`<option value=${v.name}>${v.secret ? t("{name} (secret)", { name: v.name }) : v.name}</option>`)}
    </select>`;
  if (p.type === "boolean")
    return html`<input id=${id} ...${a11y} type="checkbox" checked=${raw === true} onChange=${(e: Event) => set(checkedOf(e))} />`;
  if (p.type === "json")
    return html`<textarea id=${id} ...${a11y} rows="4" value=${raw} onInput=${(e: Event) => set(valueOf(e))} />`;
  return html`<input id=${id} ...${a11y} type=${p.type === "number" ? "number" : "text"} step="any" value=${raw} onInput=${(e: Event) => set(valueOf(e))} />`;
}

/**
 * A robot's parameter configuration (GET/PUT /a/robots/{key}/config). A secret parameter never holds a value: it names
 * a tenant variable (chosen from GET /a/variables), read when a job is handed to a runner.
 */
export function RobotConfigPage({ robotKey }: { robotKey: string }) {
  const path = `/a/robots/${encodeURIComponent(robotKey)}`;
  const data = useLoad(
    () =>
      Promise.all([
        api<Robot>("GET", path),
        api<{ values: Record<string, unknown> }>("GET", `${path}/config`),
        api<Variable[]>("GET", "/a/variables"),
      ]),
    [robotKey],
  );
  const [raw, setRaw] = useState<Raw | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  if (!data.data) return html`<${Pending} error=${data.error} />`;
  const [robot, config, vars] = data.data;
  const current: Raw =
    raw ?? Object.fromEntries(robot.parameters.map((p) => [p.name, toRaw(p, config.values[p.name])]));
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved(false);
    setError(null);
    const values: Record<string, unknown> = {};
    const found: Record<string, string> = {};
    for (const p of robot.parameters) {
      const r = fromRaw(p, current[p.name]);
      if (r.error) found[p.name] = r.error;
      else if (r.value !== undefined) values[p.name] = r.value;
    }
    setErrors(found);
    if (Object.keys(found).length) return;
    try {
      await api("PUT", `${path}/config`, { values });
      setSaved(true);
    } catch (err) {
      setError((err as Error).message);
      if (err instanceof ApiError)
        setErrors(Object.fromEntries(err.fieldErrors.map((f) => [f.field.replace(/^values\./, ""), f.message])));
    }
  };
  return html`<section class="narrow">
    <p><a href="#/settings/robots">← ${t("Robots")}</a></p>
    <h1>${robot.name} <span class="muted">${robot.key}</span></h1>
    ${robot.description ? html`<p>${robot.description}</p>` : null}
    <form onSubmit=${save}>
      <${Alert} error=${error} />
      ${saved ? html`<div class="notice" role="status">${t("Configuration saved.")}</div>` : null}
      ${robot.parameters.length === 0 ? html`<p>${t("This robot has no parameters.")}</p>` : null}
      ${robot.parameters.map((p) => {
        const id = `c-${p.name}`;
        return html`<div class=${`field${p.type === "boolean" && !p.secret ? " field-checkbox" : ""}${errors[p.name] ? " invalid" : ""}`}>
          <label for=${id}>${p.name}${p.required ? html`<span class="req" aria-hidden="true"> *</span><span class="sr-only"> (${t("required")})</span>` : null}</label>
          <${Input} p=${p} raw=${current[p.name]} vars=${vars} invalid=${!!errors[p.name]} set=${(v: string | boolean) => setRaw({ ...current, [p.name]: v })} />
          ${p.secret ? html`<small id=${`${id}-hint`}>${t("Secret: the value is read from this tenant variable when a runner fetches a job.")}</small>` : null}
          ${errors[p.name] ? html`<p class="error" id=${`${id}-err`}>${errors[p.name]}</p>` : null}
        </div>`;
      })}
      <button type="submit" class="primary">${t("Save configuration")}</button>
    </form>
  </section>`;
}
