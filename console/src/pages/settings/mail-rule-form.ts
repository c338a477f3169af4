import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { useAction, useLoad } from "../../use-load";

export interface MailRule {
  id: string;
  name: string;
  definitionKey: string;
  inboxId: string | null;
  priority: number;
  enabled: boolean;
  match: Record<string, string | boolean | null | undefined>;
  mapping: Record<string, unknown> & { extract?: { source: string; pattern: string }[] };
  correlate: unknown;
}

const MATCH = [
  ["from", () => t("From (an address or a domain)")],
  ["to", () => t("To")],
  ["subjectContains", () => t("Subject contains")],
  ["bodyContains", () => t("Text contains")],
  ["subjectRegex", () => t("Subject matches (regular expression)")],
] as const;
const MAPPING = [
  ["subject", () => t("Subject into variable")],
  ["from", () => t("Sender into variable")],
  ["date", () => t("Date into variable")],
  ["text", () => t("Text into variable")],
] as const;

const str = (v: unknown) => (typeof v === "string" ? v : "");
const orNull = (v: string) => v.trim() || null;

/** `SUBJECT: pattern` lines (named groups become variables) to the API's extract list, and back. */
const extractLines = (list: { source: string; pattern: string }[] = []) =>
  list.map((x) => `${x.source}: ${x.pattern}`).join("\n");
function parseExtract(text: string) {
  return text
    .split("\n")
    .filter((l) => l.trim())
    .map((l, i) => {
      const m = /^(SUBJECT|BODY)\s*:\s*(.+)$/.exec(l.trim());
      if (!m) throw new Error(t("Extraction line {n}: write “SUBJECT: pattern” or “BODY: pattern”.", { n: i + 1 }));
      return { source: m[1], pattern: m[2] };
    });
}

/**
 * Creating (POST) or changing (PATCH) a mail rule: which process it starts, which inbox's mail (any when none), what
 * the mail must match and which parts become variables. Delivering into a running instance (correlate) is kept as
 * JSON: it is rarer and has several shapes.
 */
export function MailRuleForm({ initial, onSaved }: { initial?: MailRule; onSaved(r: MailRule): void }) {
  const defs = useLoad(() => api<{ key: string; name: string; type: string }[]>("GET", "/a/definitions"));
  const inboxes = useLoad(() => api<{ id: string; name: string }[]>("GET", "/a/mail-rules/inboxes"));
  const [f, setF] = useState<Record<string, string>>(() => ({
    name: initial?.name ?? "",
    definitionKey: initial?.definitionKey ?? "",
    inboxId: initial?.inboxId ?? "",
    priority: String(initial?.priority ?? 100),
    hasAttachment: initial?.match.hasAttachment == null ? "" : String(initial.match.hasAttachment),
    ...Object.fromEntries(MATCH.map(([k]) => [`m.${k}`, str(initial?.match[k])])),
    ...Object.fromEntries(MAPPING.map(([k]) => [`v.${k}`, str(initial?.mapping[k])])),
    extract: extractLines(initial?.mapping.extract),
    correlate: initial?.correlate ? JSON.stringify(initial.correlate, null, 2) : "",
  }));
  const { error, run } = useAction();
  const id = initial ? "re" : "r";
  const set = (k: string) => (e: Event) => setF({ ...f, [k]: valueOf(e) });
  const input = (k: string, label: string, extra: Record<string, unknown> = {}) =>
    html`<div class="field"><label for=${`${id}-${k}`}>${label}</label>
      <input id=${`${id}-${k}`} value=${f[k]} onInput=${set(k)} ...${extra} /></div>`;
  const save = (e: Event) => {
    e.preventDefault();
    return run(async () => {
      let correlate: unknown = null;
      try {
        correlate = f.correlate.trim() ? JSON.parse(f.correlate) : null;
      } catch {
        throw new Error(t("Deliver to a running instance: not JSON."));
      }
      const body = {
        name: f.name.trim(),
        definitionKey: f.definitionKey,
        inboxId: f.inboxId || null,
        priority: Number(f.priority),
        match: {
          ...Object.fromEntries(MATCH.map(([k]) => [k, orNull(f[`m.${k}`])])),
          hasAttachment: f.hasAttachment === "" ? null : f.hasAttachment === "true",
        },
        mapping: {
          ...Object.fromEntries(MAPPING.map(([k]) => [k, orNull(f[`v.${k}`])])),
          extract: parseExtract(f.extract),
        },
        correlate,
      };
      onSaved(
        await api<MailRule>(
          initial ? "PATCH" : "POST",
          initial ? `/a/mail-rules/${initial.id}` : "/a/mail-rules",
          body,
        ),
      );
    });
  };
  return html`<form class="inline" onSubmit=${save} aria-label=${initial ? t("Change {name}", { name: initial.name }) : t("New mail rule")}>
    <${Alert} error=${error} />
    <div class="row-fields">
      ${input("name", t("Name"), { required: true, maxlength: 200 })}
      <div class="field"><label for=${`${id}-def`}>${t("Starts the process")}</label>
        <select id=${`${id}-def`} required value=${f.definitionKey} onChange=${set("definitionKey")}>
          <option value="">${t("choose…")}</option>
          ${(defs.data ?? []).map((d) => html`<option value=${d.key}>${d.name} (${d.key})</option>`)}</select></div>
      <div class="field"><label for=${`${id}-inbox`}>${t("Mail of inbox")}</label>
        <select id=${`${id}-inbox`} value=${f.inboxId} onChange=${set("inboxId")}>
          <option value="">${t("any inbox")}</option>
          ${(inboxes.data ?? []).map((i) => html`<option value=${i.id}>${i.name}</option>`)}</select></div>
      ${input("priority", t("Order (lower is tried first)"), { type: "number", min: 0, max: 1000000, required: true })}
    </div>
    <fieldset><legend>${t("The mail must match")}</legend><div class="row-fields">
      ${MATCH.map(([k, label]) => input(`m.${k}`, label()))}
      <div class="field"><label for=${`${id}-att`}>${t("Attachments")}</label>
        <select id=${`${id}-att`} value=${f.hasAttachment} onChange=${set("hasAttachment")}>
          <option value="">${t("either way")}</option><option value="true">${t("must have one")}</option><option value="false">${t("must have none")}</option></select></div>
    </div></fieldset>
    <fieldset><legend>${t("Variables of the started process")}</legend><div class="row-fields">
      ${MAPPING.map(([k, label]) => input(`v.${k}`, label(), { pattern: "[A-Za-z_][A-Za-z0-9_]{0,99}" }))}
    </div>
    <div class="field"><label for=${`${id}-extract`}>${t("Extract (one per line: SUBJECT: or BODY: a pattern whose named groups become variables)")}</label>
      <textarea id=${`${id}-extract`} class="code" rows="2" value=${f.extract} onInput=${set("extract")}></textarea></div>
    </fieldset>
    <div class="field"><label for=${`${id}-corr`}>${t("Deliver to a running instance instead (JSON, optional: messageName, key, fallback)")}</label>
      <textarea id=${`${id}-corr`} class="code" rows="2" value=${f.correlate} onInput=${set("correlate")}></textarea></div>
    <button type="submit" class="primary">${initial ? t("Save {name}", { name: initial.name }) : t("Create rule")}</button>
  </form>`;
}
