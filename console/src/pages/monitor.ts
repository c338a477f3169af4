import { when } from "../format";
import { useState } from "preact/hooks";
import { api } from "../api";
import { html } from "../html";
import { plural, t } from "../i18n";
import { type Person, Who } from "../people";
import { useDiagram } from "../use-diagram";
import { Pending, useLoad } from "../use-load";
import { type FailedJob, FailedJobsTable, JobActions, loadFailedJobs } from "./failed-jobs";
import { InstanceSearch } from "./instance-search";
import { enumLabel } from "./work-labels";

interface Activity {
  activityId: string;
  activityName: string | null;
  activityType: string;
  count: number;
  byReason: Record<string, number>;
}
interface Monitor {
  definitionKey: string;
  definitionName: string | null;
  version: number;
  bpmnXml: string;
  runningInstances: number;
  runningInstancesOtherVersions: number;
  versions: { version: number; runningInstances: number }[];
  activities: Activity[];
}
interface Parked {
  instanceId: string;
  businessKey: string | null;
  startTime: string;
  reason: string;
  taskId?: string;
  assignee?: string | null;
  assigneeUser?: Person | null;
  errorMessage?: string | null;
}

export const REASONS = ["USER_TASK", "TIMER", "JOB_RETRYING", "JOB_FAILED", "EXECUTING"] as const;
/** The reason a step's badge is coloured by: failures first, since they need someone. */
export function mainReason(byReason: Record<string, number>): string {
  for (const r of ["JOB_FAILED", "JOB_RETRYING", "TIMER", "USER_TASK", "EXECUTING"])
    if ((byReason[r] ?? 0) > 0) return r;
  return "EXECUTING";
}
const describe = (b: Record<string, number>) =>
  Object.entries(b)
    .filter(([, n]) => n > 0)
    .map(([r, n]) => `${n} ${enumLabel(r)}`)
    .join(", ");

const counters = (): Record<string, string> => ({
  definitions: t("Definitions"),
  runningInstances: t("Running instances"),
  finishedInstances: t("Finished instances"),
  activeTasks: t("Open tasks"),
  myTasks: t("My tasks"),
  failedJobs: t("Dead-lettered jobs"),
});

/**
 * The BPMN definitions with their running instances each (the total of GET /a/instances?definitionKey=, one small
 * page per process, read in parallel).
 */
async function loadDefinitions() {
  const defs = await api<{ key: string; name: string; type: string }[]>("GET", "/a/definitions");
  return Promise.all(
    defs
      .filter((d) => d.type === "BPMN")
      .map(async (d) => {
        const q = `definitionKey=${encodeURIComponent(d.key)}&size=1`;
        const page = await api<{ totalElements: number }>("GET", `/a/instances?${q}`);
        return { ...d, running: page.totalElements };
      }),
  );
}

/** A confirmation after an action, for the page to show in its status line. */
function useNotice() {
  const [notice, setNotice] = useState<string | null>(null);
  const view = notice ? html`<div class="notice" role="status">${notice}</div>` : null;
  return { view, setNotice };
}

/**
 * Dashboard counters (GET /a/dashboard), the process definitions to monitor, and the tenant's failed jobs with retry
 * and dead-letter (GET /a/instances/failed-jobs and its actions).
 */
export function MonitorList() {
  const data = useLoad(() =>
    Promise.all([api<Record<string, number>>("GET", "/a/dashboard"), loadDefinitions(), loadFailedJobs()]),
  );
  const { view, setNotice } = useNotice();
  if (!data.data) return html`<${Pending} error=${data.error} />`;
  const [figures, defs, jobs] = data.data;
  const names = counters();
  const failed = (key: string) => jobs.filter((j) => j.definitionKey === key).length;
  const done = (m: string) => {
    setNotice(m);
    data.reload();
  };
  return html`<section>
    <h1>${t("Monitor")}</h1>
    ${view}
    ${data.error ? html`<p class="alert" role="alert">${data.error}</p>` : null}
    <dl class="counters">
      ${Object.entries(figures).map(
        ([k, v]) => html`<div data-counter=${k}><dt>${names[k] ?? k}</dt><dd>${v}</dd></div>`,
      )}
    </dl>
    <h2>${t("Processes")}</h2>
    <ul class="cards">
      ${defs.map(
        (
          d,
        ) => html`<li><a class="card" href=${`#/monitor/${encodeURIComponent(d.key)}`} data-process=${d.key}>${d.name || d.key}
          <span class="figures"><span class="running">${t("{n} running", { n: d.running })}</span>${
            failed(d.key)
              ? html` · <span class="incidents">${plural(failed(d.key), "{n} failed job", "{n} failed jobs")}</span>`
              : ""
          }</span></a></li>`,
      )}
    </ul>
    <h2 id="failed-h">${t("Failed jobs")}</h2>
    <${FailedJobsTable} jobs=${jobs} caption=${t("Jobs that failed, retrying or dead-lettered")} showInstance=${true}
      onDone=${done} />
  </section>`;
}

/**
 * The instances parked at one step: each opens its instance view (a task its task page), and a failed or retrying
 * job gets retry and dead-letter, found among the tenant's failed jobs by instance and step.
 */
function Drill({
  processKey,
  version,
  activityId,
  onChanged,
}: {
  processKey: string;
  version: number;
  activityId: string;
  onChanged(message: string): void;
}) {
  const items = useLoad(
    () =>
      Promise.all([
        api<Parked[]>(
          "GET",
          `/a/definitions/${encodeURIComponent(processKey)}/monitor/${encodeURIComponent(activityId)}?version=${version}`,
        ),
        loadFailedJobs(),
      ]),
    [activityId, version],
  );
  if (!items.data) return html`<${Pending} error=${items.error} />`;
  const [parked, jobs] = items.data;
  const jobOf = (p: Parked): FailedJob | undefined =>
    jobs.find((j) => j.instanceId === p.instanceId && j.activityId === activityId);
  const done = (m: string) => {
    items.reload();
    onChanged(m);
  };
  return html`<div class="scroll"><table class="grid drill"><caption>${t("Instances parked at {step}", { step: activityId })}</caption>
    <thead><tr><th>${t("Instance")}</th><th>${t("Started")}</th><th>${t("Reason")}</th><th>${t("Detail")}</th><th><span class="sr-only">${t("Actions")}</span></th></tr></thead>
    <tbody>${parked.map((i) => {
      const job = jobOf(i);
      return html`<tr key=${i.instanceId} data-instance=${i.instanceId}>
        <td><a href=${`#/instances/${i.instanceId}`}>${i.businessKey ?? i.instanceId}</a></td>
        <td>${when(i.startTime)}</td>
        <td><span class=${`badge ${i.reason}`}>${enumLabel(i.reason)}</span></td>
        <td>${i.taskId ? html`<a href=${`#/tasks/${i.taskId}`}>${t("task")}</a> · <${Who} id=${i.assignee ?? null} person=${i.assigneeUser} />` : (i.errorMessage ?? "")}</td>
        <td>${job ? html`<${JobActions} job=${job} onDone=${done} />` : null}</td>
      </tr>`;
    })}</tbody></table></div>`;
}

/** One definition: the diagram with the count of parked instances on each step, coloured by reason. */
export function MonitorPage({ processKey }: { processKey: string }) {
  const [version, setVersion] = useState<number | null>(null);
  const [drill, setDrill] = useState<string | null>(null);
  const { view, setNotice } = useNotice();
  // A badge on the diagram opens the same list as the table's button, and brings it into view.
  const openDrill = (activityId: string) => {
    setDrill(activityId);
    requestAnimationFrame(() => document.querySelector(".drill")?.scrollIntoView({ block: "nearest" }));
  };
  const m = useLoad(
    () =>
      api<Monitor>(
        "GET",
        `/a/definitions/${encodeURIComponent(processKey)}/monitor${version ? `?version=${version}` : ""}`,
      ),
    [processKey, version],
  );
  const diagram = useDiagram(
    m.data
      ? {
          xml: m.data.bpmnXml,
          badges: m.data.activities.map((a) => ({
            elementId: a.activityId,
            text: String(a.count),
            className: mainReason(a.byReason),
            title: describe(a.byReason),
            onClick: () => openDrill(a.activityId),
          })),
        }
      : null,
    [m.data],
  );
  if (!m.data) return html`<${Pending} error=${m.error} />`;
  const d = m.data;
  const changed = (message: string) => {
    setNotice(message);
    m.reload();
  };
  return html`<section>
    <h1>${d.definitionName || d.definitionKey} <span class="muted">${`v${d.version}`}</span></h1>
    ${view}
    <p>${t("{n} running", { n: d.runningInstances })}${
      d.runningInstancesOtherVersions ? ` ${t("({n} on other versions)", { n: d.runningInstancesOtherVersions })}` : ""
    }</p>
    <label for="ver">${t("Version")}</label>
    <select id="ver" value=${String(d.version)} onChange=${(e: Event) => setVersion(Number((e.currentTarget as HTMLSelectElement).value))}>
      ${d.versions.map((v) => html`<option value=${String(v.version)}>v${v.version} (${t("{n} running", { n: v.runningInstances })})</option>`)}
    </select>
    <ul class="legend" aria-label=${t("Reasons")}>${REASONS.map((r) => html`<li><span class=${`badge ${r}`}>${enumLabel(r)}</span></li>`)}</ul>
    ${diagram.error ? html`<p class="alert" role="alert">${t("Diagram: {error}", { error: diagram.error })}</p>` : null}
    <div class="diagram" ref=${diagram.ref} role="img" aria-label=${t("Process diagram with parked counts")}></div>
    <div class="scroll"><table class="grid"><caption>${t("Parked instances per step")}</caption>
      <thead><tr><th>${t("Step")}</th><th>${t("Count")}</th><th>${t("By reason")}</th><th><span class="sr-only">${t("Actions")}</span></th></tr></thead>
      <tbody>${d.activities.map(
        (
          a,
        ) => html`<tr><td>${a.activityName || a.activityId}</td><td class="step-count">${a.count}</td><td>${describe(a.byReason)}</td>
          <td><button type="button" onClick=${() => setDrill(a.activityId)}
            aria-label=${t("Instances at {step}", { step: a.activityName || a.activityId })}>${t("Instances")}</button></td></tr>`,
      )}</tbody>
    </table></div>
    ${drill ? html`<${Drill} processKey=${processKey} version=${d.version} activityId=${drill} onChanged=${changed} />` : null}
    <${InstanceSearch} key=${d.version} processKey=${processKey} version=${d.version}
      versions=${[...new Set([d.version, ...d.versions.map((v) => v.version)])].sort((a, b) => b - a)} />
  </section>`;
}
