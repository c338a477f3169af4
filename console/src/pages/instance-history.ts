import { when } from "../format";
import { html } from "../html";
import { t } from "../i18n";
import { type Person, Who } from "../people";
import { enumLabel } from "./work-labels";

/** A row of GET /a/history/instances/{id}/activities (a plan item of a case carries its state too). */
export interface Activity {
  id: string;
  activityId: string;
  activityName: string | null;
  activityType: string;
  state?: string;
  startTime: string;
  endTime: string | null;
  durationMs: number | null;
  who: string | null;
  whoUser?: Person | null;
  channel: string | null;
  taskId: string | null;
  outcome: string | null;
}

const duration = (ms: number | null) =>
  ms === null
    ? ""
    : ms < 1000
      ? `${ms} ms`
      : ms < 60_000
        ? `${(ms / 1000).toFixed(1)} s`
        : `${Math.round(ms / 60_000)} min`;

/** The activity log: each visit of a step with who did it, through which channel, and when. */
export function HistoryTable({ rows }: { rows: Activity[] }) {
  if (rows.length === 0) return html`<p>${t("No activity yet.")}</p>`;
  return html`<div class="scroll"><table class="grid history"><caption>${t("Activities, oldest first")}</caption>
    <thead><tr><th>${t("Step")}</th><th>${t("Type")}</th><th>${t("Who")}</th><th>${t("Channel")}</th><th>${t("Started")}</th><th>${t("Ended")}</th><th>${t("Took")}</th><th>${t("Outcome")}</th></tr></thead>
    <tbody>${rows.map(
      (a) => html`<tr key=${a.id} data-activity=${a.activityId}>
        <td>${a.taskId ? html`<a href=${`#/tasks/${a.taskId}`}>${a.activityName || a.activityId}</a>` : a.activityName || a.activityId}</td>
        <td>${a.activityType}</td>
        <td class="who-cell">${a.who ? html`<${Who} id=${a.who} person=${a.whoUser} />` : ""}</td>
        <td>${a.channel ?? ""}</td>
        <td>${when(a.startTime)}</td>
        <td>${a.endTime ? when(a.endTime) : html`<span class="muted">${t("running")}</span>`}</td>
        <td>${duration(a.durationMs)}</td>
        <td>${a.outcome ? enumLabel(a.outcome) : a.state ? enumLabel(a.state) : ""}</td>
      </tr>`,
    )}</tbody></table></div>`;
}

/** Process variables as a name/value table; structured values as compact JSON. */
export function VariablesTable({ variables }: { variables: Record<string, unknown> }) {
  const names = Object.keys(variables).sort();
  if (names.length === 0) return html`<p>${t("No variables.")}</p>`;
  const show = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  return html`<div class="scroll"><table class="grid variables"><caption class="sr-only">${t("Variables")}</caption>
    <thead><tr><th>${t("Name")}</th><th>${t("Value")}</th></tr></thead>
    <tbody>${names.map((n) => html`<tr key=${n}><th scope="row">${n}</th><td><code>${show(variables[n])}</code></td></tr>`)}</tbody>
  </table></div>`;
}
