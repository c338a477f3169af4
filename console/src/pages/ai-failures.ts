import { useState } from "preact/hooks";
import { api } from "../api";
import { valueOf } from "../controls";
import { when } from "../format";
import { html } from "../html";
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
    <h1>Failed AI steps</h1>
    <div class="filters"><div class="field"><label for="af-key">Business key</label>
      <input id="af-key" type="search" value=${businessKey} onInput=${(e: Event) => {
        setBusinessKey(valueOf(e));
        setPage(0);
      }} /></div></div>
    ${!list.data ? html`<${Pending} error=${list.error} />` : null}
    ${
      list.data && !rows.length
        ? html`<p class="empty">${businessKey ? "No failed AI step for this business key." : "No AI step has failed. When one does, it is listed here with the reason, and whoever started the process is notified."}</p>`
        : null
    }
    ${
      rows.length
        ? html`<table class="grid"><caption>${list.data?.totalElements} failed step${list.data?.totalElements === 1 ? "" : "s"}, newest first</caption>
      <thead><tr><th>When</th><th>Process</th><th>Business key</th><th>Step</th><th>Agent</th><th>Failure</th><th>Attempts</th></tr></thead>
      <tbody>${rows.map(
        (
          f,
        ) => html`<tr key=${f.id} data-activity=${f.activity}><td>${when(f.updatedAt)}</td><td><code>${f.processKey}</code>${f.engine === "CMMN" ? " (case)" : ""}</td>
          <td>${f.businessKey ?? ""}</td>
          <td>${f.activity}</td><td><code>${f.agentKey}</code></td>
          <td><span class="status FAILED">${f.failureType.toLowerCase().replaceAll("_", " ")}</span><br /><small>${f.reason}</small></td>
          <td>${f.attemptCount}</td></tr>`,
      )}</tbody></table>`
        : null
    }
    ${
      list.data && list.data.totalPages > 1
        ? html`<div class="row-actions"><button type="button" disabled=${page === 0} onClick=${() => setPage(page - 1)}>Newer</button>
          <span>page ${page + 1} of ${list.data.totalPages}</span>
          <button type="button" disabled=${page + 1 >= list.data.totalPages} onClick=${() => setPage(page + 1)}>Older</button></div>`
        : null
    }
  </section>`;
}
