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

/**
 * Checks that need the whole process: cancel events belong to transactions (a cancel end directly inside one, a cancel
 * boundary on one, and a transaction that can be cancelled has its cancel boundary); ad-hoc subprocesses get their
 * enabled activities, and embedded subprocesses without a start event the elements they start at.
 */
export function checkScopes(m: ProcessModel): void {
  const els = Object.values(m.elements);
  for (const el of els) {
    if (el.adhoc) el.adhoc.enabled = enabledOf(m, el);
    else if (CONTAINERS.has(el.type) && !el.triggeredByEvent && !el.starts?.length) {
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
