import { useState } from "preact/hooks";
import { api } from "../api";
import { valueOf } from "../controls";
import { when } from "../format";
import { html } from "../html";
import { plural, t } from "../i18n";
import { Pending, useLoad } from "../use-load";

interface Failure {
  id: string;
  engine: "BPMN" | "CMMN";
  processKey: string;
  instanceId: string | null;
  businessKey: string | null;
  activity: string;
  agentKey: string;
  failureType: string;
  reason: string;
  attemptCount: number;
  updatedAt: string;
}
interface Page {
  content: Failure[];
  totalPages: number;
  totalElements: number;
}

const SIZE = 20;

/** A failure type (the API's word) as a reader sees it: in English the word in lower case, as before. */
function failureLabel(type: string): string {
  const words: Record<string, string> = {
    MODEL_UNAVAILABLE: t("model unavailable"),
    NO_ACTIVE_MODEL: t("no active model"),
    TIMEOUT: t("timeout"),
    QUOTA_EXCEEDED: t("quota exceeded"),
    INVALID_OUTPUT: t("invalid output"),
    TOOL_REFUSED: t("tool refused"),
    TOOL_STEPS_EXCEEDED: t("tool steps exceeded"),
    AGENT_NOT_FOUND: t("agent not found"),
    AGENT_NOT_IN_PROCESS: t("agent not in process"),
    MODEL_CALLS_EXCEEDED: t("model calls exceeded"),
    TOOL_CALLS_EXCEEDED: t("tool calls exceeded"),
    TOKENS_EXCEEDED: t("tokens exceeded"),
  };
  return words[type] ?? type.toLowerCase().replaceAll("_", " ");
}
/** The business key a notification's link carries (`#/ai-task-failures?businessKey=...`), if any. */
const keyInAddress = () => new URLSearchParams(location.hash.split("?")[1] ?? "").get("businessKey") ?? "";

/**
 * Failed AI steps of the company (GET /a/ai-task-failures, every member), newest first, one row per step with its
 * attempts; narrowed by business key (the AI_TASK_FAILED notification opens this page with its key). No link to the
 * instance: a failure during a start rolls the instance back, so the row's instance id may name nothing.
 */
export function AiFailuresPage() {
  const [businessKey, setBusinessKey] = useState(keyInAddress);
  const [page, setPage] = useState(0);
  const list = useLoad(
    () =>
      api<Page>(
        "GET",
        `/a/ai-task-failures?page=${page}&size=${SIZE}${businessKey.trim() ? `&businessKey=${encodeURIComponent(businessKey.trim())}` : ""}`,
      ),
    [page, businessKey],
  );
  const rows = list.data?.content ?? [];
  return html`<section>
    <h1>${t("Failed AI steps")}</h1>
    <div class="filters"><div class="field"><label for="af-key">${t("Business key")}</label>
      <input id="af-key" type="search" value=${businessKey} onInput=${(e: Event) => {
        setBusinessKey(valueOf(e));
        setPage(0);
      }} /></div></div>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${businessKey ? t("No failed AI step for this business key.") : t("No AI step has failed. When one does, it is listed here with the reason, and whoever started the process is notified.")}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${plural(list.data?.totalElements ?? 0, "{n} failed step, newest first", "{n} failed steps, newest first")}</caption>
      <thead><tr><th>${t("When")}</th><th>${t("Process")}</th><th>${t("Business key")}</th><th>${t("Step")}</th><th>${t("Agent")}</th><th>${t("Failure")}</th><th>${t("Attempts")}</th></tr></thead>
      <tbody>${rows.map(
        (
          f,
        ) => html`<tr key=${f.id} data-activity=${f.activity}><td>${when(f.updatedAt)}</td><td><code>${f.processKey}</code>${f.engine === "CMMN" ? ` ${t("(case)")}` : ""}</td>
          <td>${f.businessKey ?? ""}</td>
          <td>${f.activity}</td><td><code>${f.agentKey}</code></td>
          <td><span class="status FAILED">${failureLabel(f.failureType)}</span><br /><small>${f.reason}</small></td>
          <td>${f.attemptCount}</td></tr>`,
      )}</tbody></table>`
        : null
    }
    ${
      list.data && list.data.totalPages > 1
        ? html`<div class="row-actions"><button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>${t("Newer")}</button>
          <span>${t("page {page} of {pages}", { page: page + 1, pages: list.data.totalPages })}</span>
          <button type="button" disabled=${page + 1 >= list.data.totalPages} onClick=${() => setPage(page + 1)}>${t("Older")}</button></div>`
        : null
    }
  </section>`;
}
