import { useState } from "preact/hooks";
import { api } from "../api";
import { when } from "../format";
import { html } from "../html";
import { plural, t } from "../i18n";

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
    ? t("failed (dead-letter)")
    : plural(j.retries, "retrying ({n} attempt left)", "retrying ({n} attempts left)");

/**
 * Retry (back to executable now, retries reset) and dead-letter (stop retrying) of one failed job, through the spec's
 * job routes. `onDone` gets what happened, for the page to say and to read its figures again.
 */
export function JobActions({ job, onDone }: { job: FailedJob; onDone(message: string): void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const what = job.businessKey
    ? t("{step} of {instance}", { step: job.activityId, instance: job.businessKey })
    : job.activityId;
  const act = async (action: "retry" | "deadletter") => {
    setBusy(true);
    setError(null);
    try {
      await api("POST", `/a/instances/failed-jobs/${encodeURIComponent(job.id)}/${action}`);
      onDone(
        action === "retry"
          ? t("Job at {step} retried: it runs again now.", { step: what })
          : t("Job at {step} moved to dead-letter.", { step: what }),
      );
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return html`<span class="row-actions">
    <button type="button" disabled=${busy} onClick=${() => act("retry")} aria-label=${t("Retry job at {step}", { step: what })}>${t("Retry")}</button>
    ${
      job.state === "DEADLETTER"
        ? null
        : html`<button type="button" disabled=${busy} onClick=${() => act("deadletter")}
            aria-label=${t("Dead-letter job at {step}", { step: what })}>${t("Dead-letter")}</button>`
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
  if (jobs.length === 0) return html`<p>${t("No failed jobs.")}</p>`;
  return html`<div class="scroll"><table class="grid failed-jobs"><caption>${caption}</caption>
    <thead><tr>${showInstance ? html`<th>${t("Instance")}</th>` : null}<th>${t("Step")}</th><th>${t("State")}</th><th>${t("Error")}</th><th>${t("Due")}</th>
      <th><span class="sr-only">${t("Actions")}</span></th></tr></thead>
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
