import { useState } from "preact/hooks";
import { api } from "../api";
import { when } from "../format";
import { html } from "../html";

/** A row of GET /a/instances/failed-jobs: a job that failed at least once (retrying or dead-lettered). */
export interface FailedJob {
  id: string;
  instanceId: string | null;
  businessKey: string | null;
  definitionKey: string | null;
  activityId: string;
  kind: string;
  state: string;
  retries: number;
  exception: string | null;
  dueAt: string | null;
  createdAt: string | null;
}

/** The tenant's failed jobs (Manager; the route answers 403 below). */
export const loadFailedJobs = () => api<FailedJob[]>("GET", "/a/instances/failed-jobs");

export const jobState = (j: FailedJob) =>
  j.state === "DEADLETTER"
    ? "failed (dead-letter)"
    : `retrying (${j.retries} attempt${j.retries === 1 ? "" : "s"} left)`;

/**
 * Retry (back to executable now, retries reset) and dead-letter (stop retrying) of one failed job, through the spec's
 * job routes. `onDone` gets what happened, for the page to say and to read its figures again.
 */
export function JobActions({ job, onDone }: { job: FailedJob; onDone(message: string): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = `${job.activityId}${job.businessKey ? ` of ${job.businessKey}` : ""}`;
  const act = async (action: "retry" | "deadletter") => {
    setBusy(true);
    setError(null);
    try {
      await api("POST", `/a/instances/failed-jobs/${encodeURIComponent(job.id)}/${action}`);
      onDone(
        action === "retry" ? `Job at ${what} retried: it runs again now.` : `Job at ${what} moved to dead-letter.`,
      );
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return html`<span class="row-actions">
    <button type="button" disabled=${busy} onClick=${() => act("retry")} aria-label=${`Retry job at ${what}`}>Retry</button>
    ${
      job.state === "DEADLETTER"
        ? null
        : html`<button type="button" disabled=${busy} onClick=${() => act("deadletter")}
            aria-label=${`Dead-letter job at ${what}`}>Dead-letter</button>`
    }
    ${error ? html`<span class="error" role="alert">${error}</span>` : null}
  </span>`;
}

/** Failed jobs with their error and actions; `showInstance` adds the instance column (the tenant-wide list). */
export function FailedJobsTable({
  jobs,
  caption,
  showInstance,
  onDone,
}: {
  jobs: FailedJob[];
  caption: string;
  showInstance?: boolean;
  onDone(message: string): void;
}) {
  if (jobs.length === 0) return html`<p>No failed jobs.</p>`;
  return html`<div class="scroll"><table class="grid failed-jobs"><caption>${caption}</caption>
    <thead><tr>${showInstance ? html`<th>Instance</th>` : null}<th>Step</th><th>State</th><th>Error</th><th>Due</th>
      <th><span class="sr-only">Actions</span></th></tr></thead>
    <tbody>${jobs.map(
      (j) => html`<tr key=${j.id} data-job=${j.id}>
        ${
          showInstance
            ? html`<td>${
                j.instanceId
                  ? html`<a href=${`#/instances/${j.instanceId}`}>${j.businessKey ?? j.instanceId}</a>`
                  : (j.businessKey ?? "—")
              }<br /><span class="muted">${j.definitionKey}</span></td>`
            : null
        }
        <td>${j.activityId} <span class="muted">(${j.kind})</span></td>
        <td class="job-state">${jobState(j)}</td>
        <td class="exception">${j.exception ?? ""}</td>
        <td>${j.dueAt ? when(j.dueAt) : ""}</td>
        <td><${JobActions} job=${j} onDone=${onDone} /></td>
      </tr>`,
    )}</tbody></table></div>`;
}
