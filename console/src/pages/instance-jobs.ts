import { api } from "../api";
import { Alert } from "../controls";
import { when } from "../format";
import { html } from "../html";
import { plural, t } from "../i18n";
import { Pending, useAction, useLoad } from "../use-load";

/** A row of GET /a/instances/{id}/jobs. */
interface Job {
  id: string;
  activityId: string;
  type: string;
  state: string;
  dueAt: string;
  retries: number;
  exception: string | null;
}
interface Execution {
  outcome: "executed" | "failed";
  error: string | null;
}

/**
 * Every job of the instance (timers, async steps, failed steps, robot work) with "Run now": POST /a/jobs/{id}/execute
 * fires a timer as if due and tries a failed or dead-lettered job once; a failed run is said with its error. `version`
 * changes when the page reloads, so the list follows the page's other actions.
 */
export function InstanceJobs({ id, version, onDone }: { id: string; version: unknown; onDone(message: string): void }) {
  const jobs = useLoad(() => api<Job[]>("GET", `/a/instances/${id}/jobs`), [id, version]);
  const { error, run } = useAction();
  if (!jobs.data) return html`<${Pending} error=${jobs.error} />`;
  if (jobs.data.length === 0) return html`<p>${t("No jobs.")}</p>`;
  const execute = (j: Job) =>
    run(async () => {
      const r = await api<Execution>("POST", `/a/jobs/${encodeURIComponent(j.id)}/execute`);
      jobs.reload();
      onDone(
        r.outcome === "executed"
          ? t("Job at {step} ran.", { step: j.activityId })
          : t("Job at {step} failed: {error}", { step: j.activityId, error: r.error ?? "" }),
      );
    });
  return html`<div>
    <${Alert} error=${error} />
    <div class="scroll"><table class="grid jobs"><caption class="sr-only">${t("Jobs of this instance")}</caption>
      <thead><tr><th>${t("Step")}</th><th>${t("Kind")}</th><th>${t("State")}</th><th>${t("Due")}</th><th>${t("Error")}</th><th><span class="sr-only">${t("Actions")}</span></th></tr></thead>
      <tbody>${jobs.data.map(
        (j) => html`<tr key=${j.id} data-job=${j.id}>
          <td>${j.activityId}</td><td>${j.type}</td>
          <td>${j.state === "DEADLETTER" ? t("dead-letter") : plural(j.retries, "{n} retry left", "{n} retries left")}</td>
          <td>${when(j.dueAt)}</td><td class="exception">${j.exception ?? ""}</td>
          <td><button type="button" onClick=${() => execute(j)} aria-label=${t("Run job at {step} now", { step: j.activityId })}>${t("Run now")}</button></td>
        </tr>`,
      )}</tbody>
    </table></div>
  </div>`;
}
