import { api } from "../api";
import { when } from "../format";
import { html } from "../html";
import { t } from "../i18n";
import { useAction } from "../use-load";
import { enumLabel } from "./work-labels";

/** A row of GET /a/instances/{id}/plan-items: a live step of a case and the actions the caller may take on it. */
export interface PlanItem {
  id: string;
  elementId: string;
  name: string;
  type: string;
  state: string;
  stageId?: string;
  actions: Action[];
}
type Action = "START" | "DISABLE" | "ENABLE" | "TRIGGER" | "COMPLETE_STAGE";
export interface Milestone {
  id: string;
  elementId: string;
  name: string;
  reachedAt: string;
}

/** Each action the API offers, its route segment and the button's word (in the reader's language). */
const actions = (): Record<Action, [string, string]> => ({
  START: ["start", t("Start")],
  DISABLE: ["disable", t("Disable")],
  ENABLE: ["enable", t("Enable")],
  TRIGGER: ["trigger", t("Trigger")],
  COMPLETE_STAGE: ["complete-stage", t("Complete stage")],
});

/**
 * The case's plan items with one button per action the API lists for the caller (COMPLETE_STAGE only reaches
 * Managers), and the milestones reached. The server decides what is allowed; a refusal shows above the table.
 */
export function CasePlan({
  caseId,
  items,
  milestones,
  onChanged,
}: {
  caseId: string;
  items: PlanItem[];
  milestones: Milestone[];
  onChanged(message: string): void;
}) {
  const { error, run } = useAction();
  const stageName = (id?: string) => (id ? (items.find((i) => i.id === id)?.name ?? "") : "");
  const act = (p: PlanItem, a: Action) =>
    run(async () => {
      const [segment, word] = actions()[a];
      await api("POST", `/a/instances/${caseId}/plan-items/${encodeURIComponent(p.id)}/${segment}`);
      onChanged(t("{action}: “{item}” done.", { action: word, item: p.name }));
    });
  return html`<section aria-labelledby="plan-h">
    <h2 id="plan-h">${t("Plan items")}</h2>
    ${error ? html`<div class="alert" role="alert">${error}</div>` : null}
    ${
      items.length === 0
        ? html`<p>${t("No live plan items.")}</p>`
        : html`<div class="scroll"><table class="grid plan-items"><caption>${t("Live steps of the case")}</caption>
      <thead><tr><th>${t("Step")}</th><th>${t("Type")}</th><th>${t("State")}</th><th>${t("Stage")}</th><th>${t("Actions")}</th></tr></thead>
      <tbody>${items.map(
        (p) => html`<tr key=${p.id} data-plan-item=${p.elementId}>
          <td>${p.name}</td><td>${p.type}</td><td class="state">${enumLabel(p.state)}</td><td>${stageName(p.stageId)}</td>
          <td class="row-actions">${p.actions.map((a) => {
            const [, word] = actions()[a];
            return html`<button type="button" onClick=${() => act(p, a)} aria-label=${t("{action} {item}", { action: word, item: p.name })}>${word}</button>`;
          })}</td>
        </tr>`,
      )}</tbody></table></div>`
    }
    <h3>${t("Milestones reached")}</h3>
    ${
      milestones.length === 0
        ? html`<p>${t("None yet.")}</p>`
        : html`<ul class="milestones">${milestones.map((m) => html`<li key=${m.id}>${m.name} <span class="muted">· ${when(m.reachedAt)}</span></li>`)}</ul>`
    }
  </section>`;
}
