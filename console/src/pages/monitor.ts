import { when } from "../format";
import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api";
import { html } from "../html";
import { Pending, useLoad } from "../use-load";

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
  assignee?: string | null;
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
    .map(([r, n]) => `${n} ${r}`)
    .join(", ");

/** Dashboard counters (GET /a/dashboard) and the process definitions to monitor. */
export function MonitorList() {
  const data = useLoad(() =>
    Promise.all([
      api<Record<string, number>>("GET", "/a/dashboard"),
      api<{ key: string; name: string; type: string }[]>("GET", "/a/definitions"),
    ]),
  );
  if (!data.data) return html`<${Pending} error=${data.error} />`;
  const [counters, defs] = data.data;
  return html`<section>
    <h1>Monitor</h1>
    <dl class="counters">
      ${Object.entries(counters).map(([k, v]) => html`<div><dt>${k.replace(/([A-Z])/g, " $1").toLowerCase()}</dt><dd>${v}</dd></div>`)}
    </dl>
    <h2>Processes</h2>
    <ul class="cards">
      ${defs
        .filter((d) => d.type === "BPMN")
        .map(
          (d) => html`<li><a class="card" href=${`#/monitor/${encodeURIComponent(d.key)}`}>${d.name || d.key}</a></li>`,
        )}
    </ul>
  </section>`;
}

function Drill({ processKey, version, activityId }: { processKey: string; version: number; activityId: string }) {
  const items = useLoad(
    () =>
      api<Parked[]>(
        "GET",
        `/a/definitions/${encodeURIComponent(processKey)}/monitor/${encodeURIComponent(activityId)}?version=${version}`,
      ),
    [activityId, version],
  );
  if (!items.data) return html`<${Pending} error=${items.error} />`;
  return html`<table class="grid"><caption>Instances parked at ${activityId}</caption>
    <thead><tr><th>Business key</th><th>Started</th><th>Reason</th><th>Detail</th></tr></thead>
    <tbody>${items.data.map(
      (i) => html`<tr><td>${i.businessKey ?? i.instanceId}</td><td>${when(i.startTime)}</td>
        <td><span class=${`badge ${i.reason}`}>${i.reason}</span></td><td>${i.errorMessage ?? i.assignee ?? ""}</td></tr>`,
    )}</tbody></table>`;
}

/** One definition: the diagram with the count of parked instances on each step, coloured by reason. */
export function MonitorPage({ processKey }: { processKey: string }) {
  const [version, setVersion] = useState<number | null>(null);
  const [drill, setDrill] = useState<string | null>(null);
  const [diagramError, setDiagramError] = useState<string | null>(null);
  const m = useLoad(
    () =>
      api<Monitor>(
        "GET",
        `/a/definitions/${encodeURIComponent(processKey)}/monitor${version ? `?version=${version}` : ""}`,
      ),
    [processKey, version],
  );
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!m.data || !box.current) return;
    let destroy: (() => void) | null = null;
    let gone = false;
    const badges = m.data.activities.map((a) => ({
      elementId: a.activityId,
      text: String(a.count),
      className: mainReason(a.byReason),
      title: describe(a.byReason),
    }));
    import("../diagram")
      .then(({ drawDiagram }) => drawDiagram(box.current as HTMLDivElement, (m.data as Monitor).bpmnXml, badges))
      .then((d) => (gone ? d() : (destroy = d)))
      .catch((e: Error) => setDiagramError(e.message));
    return () => {
      gone = true;
      destroy?.();
    };
  }, [m.data]);
  if (!m.data) return html`<${Pending} error=${m.error} />`;
  const d = m.data;
  return html`<section>
    <h1>${d.definitionName || d.definitionKey} <span class="muted">v${d.version}</span></h1>
    <p>${d.runningInstances} running${d.runningInstancesOtherVersions ? ` (${d.runningInstancesOtherVersions} on other versions)` : ""}</p>
    <label for="ver">Version</label>
    <select id="ver" value=${String(d.version)} onChange=${(e: Event) => setVersion(Number((e.currentTarget as HTMLSelectElement).value))}>
      ${d.versions.map((v) => html`<option value=${String(v.version)}>v${v.version} (${v.runningInstances} running)</option>`)}
    </select>
    <ul class="legend" aria-label="Reasons">${REASONS.map((r) => html`<li><span class=${`badge ${r}`}>${r}</span></li>`)}</ul>
    ${diagramError ? html`<p class="alert" role="alert">Diagram: ${diagramError}</p>` : null}
    <div class="diagram" ref=${box} role="img" aria-label="Process diagram with parked counts"></div>
    <table class="grid"><caption>Parked instances per step</caption>
      <thead><tr><th>Step</th><th>Count</th><th>By reason</th><th></th></tr></thead>
      <tbody>${d.activities.map(
        (
          a,
        ) => html`<tr><td>${a.activityName || a.activityId}</td><td class="step-count">${a.count}</td><td>${describe(a.byReason)}</td>
          <td><button type="button" onClick=${() => setDrill(a.activityId)}>Instances</button></td></tr>`,
      )}</tbody>
    </table>
    ${drill ? html`<${Drill} processKey=${processKey} version=${d.version} activityId=${drill} />` : null}
  </section>`;
}
