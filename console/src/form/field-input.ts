import { useEffect, useState } from "preact/hooks";
import { api } from "../api";
import { html } from "../html";
import { t } from "../i18n";
import { displayValue, type Field, type Option, optionsFromRows, optionsOf, type Raw } from "./model";

export interface InputProps {
  field: Field;
  id: string;
  value: unknown;
  error?: string;
  /** The instance the form belongs to, when there is one (a file field uploads to it). */
  instanceId?: string;
  onRaw(raw: Raw, options?: Option[]): void;
  onValue(value: unknown): void;
}

/** Options of a select-like field: inline, or the rows of its data source (POST /a/forms/datasources/{key}/execute). */
function useOptions(f: Field): { options: Option[]; failed?: string } {
  const [state, set] = useState<{ options: Option[]; failed?: string }>({ options: optionsOf(f) });
  useEffect(() => {
    if (!f.dataSource) return;
    api<{ rows: Record<string, unknown>[] }>(
      "POST",
      `/a/forms/datasources/${encodeURIComponent(f.dataSource)}/execute`,
      {},
    )
      .then((r) => set({ options: optionsFromRows(f, r.rows) }))
      .catch((e: Error) => set({ options: [], failed: e.message }));
  }, [f.dataSource]);
  return state;
}

/** A `user` field offers the members of its `processRole` when it names one; otherwise it takes a user id. */
function useRoleMembers(f: Field): Option[] | null {
  const [members, set] = useState<Option[] | null>(null);
  useEffect(() => {
    if (!f.processRole) return;
    api<{ key: string; members: { userId: string; email: string; firstName?: string }[] }[]>("GET", "/a/process-roles")
      .then((roles) => {
        const role = roles.find((r) => r.key === f.processRole);
        set(
          (role?.members ?? []).map((m) => ({
            value: m.userId,
            label: m.firstName ? `${m.firstName} (${m.email})` : m.email,
          })),
        );
      })
      .catch(() => set([]));
  }, [f.processRole]);
  return members;
}

const INPUT_TYPE: Record<string, string> = {
  text: "text",
  email: "email",
  phone: "tel",
  number: "text",
  integer: "text",
  decimal: "text",
  currency: "text",
  date: "date",
  datetime: "datetime-local",
  time: "time",
  user: "text",
};
const INPUT_MODE: Record<string, string> = {
  number: "decimal",
  integer: "numeric",
  decimal: "decimal",
  currency: "decimal",
};

function ChoiceInput(p: InputProps) {
  const { field: f, id } = p;
  const { options, failed } = useOptions(f);
  const current = p.value;
  if (failed)
    return html`<p class="error" id=${`${id}-err`}>${t("Options unavailable: {error}", { error: failed })}</p>`;
  if (f.type === "radio")
    return html`<div role="radiogroup" aria-labelledby=${`${id}-label`}>
      ${options.map(
        (o, i) => html`<label class="choice"><input type="radio" name=${id} id=${i === 0 ? id : undefined}
          checked=${String(current) === String(o.value)} disabled=${f.readOnly}
          onChange=${() => p.onRaw(String(o.value), options)} /> ${o.label}</label>`,
      )}
    </div>`;
  const multiple = f.type === "multiselect";
  const chosen = new Set((Array.isArray(current) ? current : current === undefined ? [] : [current]).map(String));
  return html`<select id=${id} multiple=${multiple} disabled=${f.readOnly} aria-invalid=${!!p.error}
    aria-describedby=${p.error ? `${id}-err` : undefined}
    onChange=${(e: Event) => {
      const el = e.currentTarget as HTMLSelectElement;
      p.onRaw(multiple ? [...el.selectedOptions].map((o) => o.value) : el.value, options);
    }}>
    ${multiple ? null : html`<option value="">—</option>`}
    ${options.map((o) => html`<option value=${String(o.value)} selected=${chosen.has(String(o.value))}>${o.label}</option>`)}
  </select>`;
}

function UserInput(p: InputProps) {
  const members = useRoleMembers(p.field);
  if (members) return html`<${ChoiceInput} ...${p} field=${{ ...p.field, type: "select", options: members }} />`;
  return html`<${TextInput} ...${p} />`;
}

function FileInput(p: InputProps) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!p.instanceId)
    return html`<p class="hint" id=${p.id}>${t("Files are attached once the process has started (on its tasks).")}</p>`;
  const upload = async (file: File) => {
    const fd = new FormData();
    fd.append("file", file);
    fd.append("entityType", "PROCESS_INSTANCE");
    fd.append("entityId", p.instanceId as string);
    if (p.field.documentTypeId) fd.append("documentTypeId", p.field.documentTypeId);
    setBusy(true);
    setProblem(null);
    try {
      const a = await api<{ id: string }>("POST", "/a/attachments", fd);
      p.onValue(a.id);
    } catch (e) {
      setProblem((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return html`<div>
    <input type="file" id=${p.id} disabled=${busy || p.field.readOnly}
      onChange=${(e: Event) => {
        const file = (e.currentTarget as HTMLInputElement).files?.[0];
        if (file) void upload(file);
      }} />
    ${p.value ? html`<span class="hint"> ${t("attached ({id})", { id: String(p.value) })}</span>` : null}
    ${problem ? html`<p class="error" role="alert">${problem}</p>` : null}
  </div>`;
}

/** Keeps the text as typed ("3." on the way to "3.5"); the parsed value goes up with every keystroke. */
function TextInput(p: InputProps) {
  const { field: f, id } = p;
  const [text, setText] = useState(() => displayValue(f, p.value));
  const typed = (e: Event) => {
    const v = (e.currentTarget as HTMLInputElement | HTMLTextAreaElement).value;
    setText(v);
    p.onRaw(v);
  };
  const common = {
    id,
    disabled: f.readOnly,
    placeholder: f.placeholder,
    "aria-invalid": !!p.error,
    "aria-describedby": p.error ? `${id}-err` : f.help ? `${id}-help` : undefined,
    "aria-required": f.required === true,
  };
  if (f.type === "textarea") return html`<textarea ...${common} rows="4" value=${text} onInput=${typed} />`;
  return html`<input ...${common} type=${INPUT_TYPE[f.type] ?? "text"} inputmode=${INPUT_MODE[f.type]}
    value=${text} onInput=${typed} />`;
}

/** The control of one field by its type (docs/forms.md lists the types). */
export function FieldInput(p: InputProps) {
  switch (p.field.type) {
    case "checkbox":
      return html`<input type="checkbox" id=${p.id} checked=${p.value === true} disabled=${p.field.readOnly}
        aria-invalid=${!!p.error} onChange=${(e: Event) => p.onRaw((e.currentTarget as HTMLInputElement).checked)} />`;
    case "select":
    case "radio":
    case "multiselect":
      return html`<${ChoiceInput} ...${p} />`;
    case "user":
      return html`<${UserInput} ...${p} />`;
    case "file":
      return html`<${FileInput} ...${p} />`;
    default:
      return html`<${TextInput} ...${p} />`;
  }
}
