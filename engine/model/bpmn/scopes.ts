import { BpmnDeployError } from "../../errors";
import { requireSubprocessStart } from "./element-details";
import { CONTAINERS } from "./element-kinds";
import type { ElementModel, ProcessModel } from "./types";

/**
 * Inner elements of a subprocess no sequence flow reaches: what a caller may start in an ad-hoc subprocess, and what
 * starts by itself in an embedded subprocess without a start event.
 */
function enabledOf(m: ProcessModel, adhoc: ElementModel): string[] {
  return (
    Object.values(m.elements)
      .filter((x) => x.scope === adhoc.id && x.incoming.length === 0)
      // Boundary events, compensation handlers and event subprocesses have no incoming flow but are triggered, never started.
      .filter((x) => x.type !== "boundaryEvent" && x.type !== "startEvent" && !x.forCompensation && !x.triggeredByEvent)
      .map((x) => x.id)
  );
}

/** What the model APIs accept as a tool's name (OpenAI-compatible function names). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * An agent loop offers each enabled activity to the model under its id: an id the model APIs refuse as a tool name
 * would fail every turn, so it is refused at deploy, naming the activity.
 */
function requireToolNames(subprocess: string, activities: string[]): void {
  for (const id of activities)
    if (!TOOL_NAME.test(id))
      throw new BpmnDeployError(
        `Activity '${id}' of the agent loop '${subprocess}' cannot be offered to a model as a tool: its id must be 1 to 64 letters, digits, '_' or '-'`,
      );
}

/**
 * Checks that need the whole process: cancel events belong to transactions (a cancel end directly inside one, a cancel
 * boundary on one, and a transaction that can be cancelled has its cancel boundary); ad-hoc subprocesses get their
 * enabled activities, and embedded subprocesses without a start event the elements they start at.
 */
export function checkScopes(m: ProcessModel): void {
  const els = Object.values(m.elements);
  for (const el of els) {
    if (el.adhoc) {
      el.adhoc.enabled = enabledOf(m, el);
      if (el.adhoc.agent) requireToolNames(el.id, el.adhoc.enabled);
    } else if (CONTAINERS.has(el.type) && !el.triggeredByEvent && !el.starts?.length) {
      el.implicitStarts = enabledOf(m, el);
      requireSubprocessStart(el, [], el.implicitStarts);
    }
    if (el.event?.kind !== "cancel") continue;
    const where = `Cancel event '${el.id}'`;
    if (el.type === "boundaryEvent") {
      if (m.elements[el.attachedTo!]?.type !== "transaction")
        throw new BpmnDeployError(`${where} is attached to '${el.attachedTo}', which is not a transaction`);
      continue;
    }
    if (el.type !== "endEvent")
      throw new BpmnDeployError(`${where}: only cancel end events and cancel boundary events exist`);
    const tx = m.elements[el.scope];
    if (tx?.type !== "transaction") throw new BpmnDeployError(`${where} is not directly inside a transaction`);
    if (!els.some((b) => b.type === "boundaryEvent" && b.attachedTo === tx.id && b.event?.kind === "cancel"))
      throw new BpmnDeployError(
        `Transaction '${tx.id}' has a cancel end event but no cancel boundary event to leave through`,
      );
  }
}
