import { useState } from "preact/hooks";
import { api } from "../../api";
import { Alert, valueOf } from "../../controls";
import { html } from "../../html";
import { t } from "../../i18n";
import { Pending, useAction, useLoad } from "../../use-load";

interface Config {
  businessKeyTemplate: string | null;
  attachmentPolicy: {
    uploadMode: string;
    uploadRoles: string[];
    previewRoles: string[];
    replaceRoles: string[];
  } | null;
  mcpPolicy: "NONE" | "START_AND_READ" | "START_AND_COMPLETE";
  historyTimeToLive: number | null;
}

const roles = (s: string) => s.split(/[\s,]+/).filter(Boolean);

function ConfigForm({
  processKey,
  initial,
  onSaved,
}: {
  processKey: string;
  initial: Config;
  onSaved(c: Config): void;
}) {
  const ap = initial.attachmentPolicy;
  const [f, setF] = useState({
    businessKeyTemplate: initial.businessKeyTemplate ?? "",
    mcpPolicy: initial.mcpPolicy,
    historyTimeToLive: initial.historyTimeToLive === null ? "" : String(initial.historyTimeToLive),
    uploadMode: ap?.uploadMode ?? "",
    uploadRoles: ap?.uploadRoles.join(" ") ?? "",
    previewRoles: ap?.previewRoles.join(" ") ?? "",
    replaceRoles: ap?.replaceRoles.join(" ") ?? "",
  });
  const [done, setDone] = useState<string | null>(null);
  const { error, run } = useAction();
  const set = (k: keyof typeof f) => (e: Event) => setF({ ...f, [k]: valueOf(e) });
  const input = (k: keyof typeof f, label: string, extra: Record<string, unknown> = {}) =>
    html`<div class="field"><label for=${`pc-${k}`}>${label}</label>
      <input id=${`pc-${k}`} value=${f[k]} onInput=${set(k)} ...${extra} /></div>`;
  const save = (e: Event) => {
    e.preventDefault();
    setDone(null);
    return run(async () => {
      const saved = await api<Config>("PUT", `/a/definitions/${encodeURIComponent(processKey)}/config`, {
        businessKeyTemplate: f.businessKeyTemplate.trim() || null,
        mcpPolicy: f.mcpPolicy,
        historyTimeToLive: f.historyTimeToLive.trim() === "" ? null : Number(f.historyTimeToLive),
        attachmentPolicy: f.uploadMode
          ? {
              uploadMode: f.uploadMode,
              uploadRoles: roles(f.uploadRoles),
              previewRoles: roles(f.previewRoles),
              replaceRoles: roles(f.replaceRoles),
            }
          : null,
      });
      setDone(t("Configuration saved."));
      onSaved(saved);
    });
  };
  return html`<form class="inline" onSubmit=${save} aria-labelledby="pc-h">
    <h2 id="pc-h">${t("Configuration")}</h2>
    <${Alert} error=${error} />
    ${done ? html`<p class="notice" role="status">${done}</p>` : null}
    <div class="row-fields">
      ${input("businessKeyTemplate", t("Business key template (empty: the system's)"), { placeholder: "ORD-${customer}-${date:yyyy}" })}
      <div class="field"><label for="pc-mcp">${t("AI assistants (MCP) may")}</label>
        <select id="pc-mcp" value=${f.mcpPolicy} onChange=${set("mcpPolicy")}>
          <option value="NONE">${t("nothing")}</option><option value="START_AND_READ">${t("start and read")}</option>
          <option value="START_AND_COMPLETE">${t("start, read and complete tasks")}</option></select></div>
      ${input("historyTimeToLive", t("Keep ended instances (days; empty: the default)"), { type: "number", min: 0, max: 36500 })}
    </div>
    <fieldset><legend>${t("Attachments")}</legend><div class="row-fields">
      <div class="field"><label for="pc-mode">${t("Uploads")}</label>
        <select id="pc-mode" value=${f.uploadMode} onChange=${set("uploadMode")}>
          <option value="">${t("not configured (any time)")}</option><option value="AD_HOC">${t("any time")}</option>
          <option value="FORM_ONLY">${t("only through form fields")}</option><option value="DISABLED">${t("none")}</option></select></div>
      ${
        f.uploadMode
          ? html`${input("uploadRoles", t("Who uploads (process role keys; empty: any role)"))}
          ${input("previewRoles", t("Who opens them"))}${input("replaceRoles", t("Who replaces them"))}`
          : null
      }
    </div></fieldset>
    <button type="submit" class="primary">${t("Save configuration")}</button>
  </form>`;
}

/** A process's configuration (GET/PUT /a/definitions/{key}/config, Modeler): business key, MCP policy, retention, files. */
export function ProcessConfig({ processKey }: { processKey: string }) {
  const cfg = useLoad(
    () => api<Config>("GET", `/a/definitions/${encodeURIComponent(processKey)}/config`),
    [processKey],
  );
  if (!cfg.data) return html`<${Pending} error=${cfg.error} />`;
  return html`<${ConfigForm} processKey=${processKey} initial=${cfg.data} onSaved=${() => undefined} />`;
}
