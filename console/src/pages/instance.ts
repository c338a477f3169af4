import { useState } from "preact/hooks";
import { api, apiResponse, hasRole } from "../api";
import type { Marker } from "../diagram";
import { when } from "../format";
import { html } from "../html";
import { t } from "../i18n";
import { useDiagram } from "../use-diagram";
import { Pending, useLoad } from "../use-load";
import { AttachmentsPanel } from "./attachments-panel";
import { CasePlan, type Milestone, type PlanItem } from "./case-plan";
import { type FailedJob, FailedJobsTable, loadFailedJobs } from "./failed-jobs";
import { type Activity, HistoryTable } from "./instance-history";
import { InstanceJobs } from "./instance-jobs";
import { InstanceVariables } from "./instance-variables";
import { InstanceControls } from "./instance-controls";
import { type Person, Who } from "../people";
import { AgentConversation } from "./agent-conversation";
import { enumLabel } from "./work-labels";

interface Detail {
  id: string;
  businessKey: string | null;
  definitionKey: string;
  version: number;
  type: "BPMN" | "CMMN";
  state: string;
  startTime: string;
  endTime: string | null;
  startedBy: string | null;
  ended: boolean;
  suspended: boolean;
  startedByUser?: Person | null;
  variables: Record<string, unknown>;
  activeTasks: { id: string; name: string; assignee: string | null; assigneeUser?: Person | null }[];
  activeActivityIds: string[];
}
interface Loaded {
  d: Detail;
  history: Activity[];
  jobs: FailedJob[];
  xml: string | null;
  plan: PlanItem[];
  milestones: Milestone[];
}

const isManager = () => hasRole("MANAGER", "ADMIN");

/**
 * Everything the page shows, read in parallel from the public API: the instance (GET /a/instances/{id}), its activity
 * log, its failed jobs (Managers only: the route answers 403 below), and the BPMN of its version, or a case's plan
 * items and milestones.
 */
async function load(id: string): Promise<Loaded> {
  const d = await api<Detail>("GET", `/a/instances/${id}`);
  const bpmn = d.type === "BPMN";
  const [history, jobs, xml, plan, milestones] = await Promise.all([
    api<Activity[]>("GET", `/a/history/instances/${id}/activities`),
    isManager() ? loadFailedJobs().then((all) => all.filter((j) => j.instanceId === id)) : Promise.resolve([]),
    bpmn ? apiResponse("GET", `/a/instances/${id}/diagram?format=xml`).then((r) => r.text()) : Promise.resolve(null),
    bpmn ? Promise.resolve([]) : api<PlanItem[]>("GET", `/a/instances/${id}/plan-items`),
    bpmn ? Promise.resolve([]) : api<Milestone[]>("GET", `/a/instances/${id}/milestones`),
  ]);
  return { d, history, jobs, xml, plan, milestones };
}

/** The state of each step for the diagram: failed (a failed job) over active (a token rests) over completed. */
export function stepMarkers(history: Activity[], activeIds: string[], failedIds: string[]): Marker[] {
  const state = new Map<string, string>();
  for (const a of history) if (a.endTime && a.outcome === "completed") state.set(a.activityId, "step-done");
  for (const id of activeIds) state.set(id, "step-active");
  for (const id of failedIds) state.set(id, "step-failed");
  return [...state].map(([elementId, className]) => ({ elementId, className }));
}

const legend = (): [string, string][] => [
  ["step-done", t("Completed")],
  ["step-active", t("Active")],
  ["step-failed", t("Failed")],
];

function Diagram({ data }: { data: Loaded }) {
  const markers = stepMarkers(
    data.history,
    data.d.activeActivityIds,
    data.jobs.map((j) => j.activityId),
  );
  const diagram = useDiagram(data.xml ? { xml: data.xml, markers } : null, [data]);
  const count = (cls: string) => markers.filter((m) => m.className === cls).length;
  return html`<section aria-labelledby="diagram-h">
    <h2 id="diagram-h">${t("Diagram")}</h2>
    <ul class="legend" aria-label=${t("Step states")}>
      ${legend().map(([cls, label]) => html`<li><span class=${`swatch ${cls}`}></span> ${label} (${count(cls)})</li>`)}
    </ul>
    ${diagram.error ? html`<p class="alert" role="alert">${t("Diagram: {error}", { error: diagram.error })}</p>` : null}
    <div class="diagram" ref=${diagram.ref} role="img"
      aria-label=${t("Process diagram: {done} completed, {active} active, {failed} failed steps", {
        done: count("step-done"),
        active: count("step-active"),
        failed: count("step-failed"),
      })}></div>
  </section>`;
}

/**
 * One process instance or case: its diagram with completed, active and failed steps, open tasks, variables, files,
 * history, and for a case its plan items with their actions. Managers also get the instance's failed jobs with retry and
 * dead-letter.
 */
export function InstancePage({ id }: { id: string }) {
  const data = useLoad(() => load(id), [id]);
  const [notice, setNotice] = useState<string | null>(null);
  if (!data.data) return html`<${Pending} error=${data.error} />`;
  const { d } = data.data;
  const changed = (m: string) => {
    setNotice(m);
    data.reload();
  };
  return html`<section>
    <h1>${d.businessKey ?? d.id} <span class="muted">${d.definitionKey} ${`v${d.version}`}</span></h1>
    ${notice ? html`<div class="notice" role="status">${notice}</div>` : null}
    ${data.error ? html`<p class="alert" role="alert">${data.error}</p>` : null}
    <dl class="facts">
      <div><dt>${t("State")}</dt><dd class=${`status ${d.state}`}>${enumLabel(d.state)}</dd></div>
      <div><dt>${t("Type")}</dt><dd>${d.type === "CMMN" ? t("Case") : t("Process")}</dd></div>
      <div><dt>${t("Started")}</dt><dd>${when(d.startTime)}${d.startedBy ? html` ${t("by")} <${Who} id=${d.startedBy} person=${d.startedByUser} />` : ""}</dd></div>
      ${d.endTime ? html`<div><dt>${t("Ended")}</dt><dd>${when(d.endTime)}</dd></div>` : null}
    </dl>
    ${isManager() ? html`<${InstanceControls} d=${d} onDone=${changed} />` : null}
    <h2>${t("Open tasks")}</h2>
    ${
      d.activeTasks.length
        ? html`<ul class="open-tasks">${d.activeTasks.map(
            (task) =>
              html`<li key=${task.id}><a href=${`#/tasks/${task.id}`}>${task.name}</a> <span class="muted">· <${Who} id=${task.assignee} person=${task.assigneeUser} /></span></li>`,
          )}</ul>`
        : html`<p>${t("None.")}</p>`
    }
    ${d.type === "BPMN" ? html`<${Diagram} data=${data.data} />` : null}
    ${d.type === "BPMN" ? html`<${AgentConversation} instanceId=${d.id} />` : null}
    ${
      d.type === "CMMN"
        ? html`<${CasePlan} caseId=${d.id} items=${data.data.plan} milestones=${data.data.milestones} onChanged=${changed} />`
        : null
    }
    ${
      isManager()
        ? html`<h2>${t("Failed jobs")}</h2><${FailedJobsTable} jobs=${data.data.jobs} caption=${t("Failed jobs of this instance")} onDone=${changed} />`
        : null
    }
    ${
      isManager() && !d.ended
        ? html`<h2>${t("Jobs")}</h2><${InstanceJobs} id=${d.id} version=${data.data} onDone=${changed} />`
        : null
    }
    <h2>${t("Variables")}</h2>
    <${InstanceVariables} id=${d.id} variables=${d.variables} editable=${isManager() && !d.ended} onDone=${changed} />
    <${AttachmentsPanel} instanceId=${d.id} />
    <h2>${t("History")}</h2>
    <${HistoryTable} rows=${data.data.history} />
  </section>`;
}
