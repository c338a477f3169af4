import { BpmnDeployError } from "../../errors";
import type { ElementModel, ProcessModel } from "./types";

/** Inner elements of an ad-hoc subprocess a caller may start: activities and events no sequence flow reaches. */
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
 * enabled activities.
 */
export function checkScopes(m: ProcessModel): void {
  const els = Object.values(m.elements);
  for (const el of els) {
    if (el.adhoc) el.adhoc.enabled = enabledOf(m, el);
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
