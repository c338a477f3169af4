import { CONTAINERS } from "./element-kinds";
import type { ElementModel, ProcessModel } from "./types";

export type FindingCode = "ORPHAN" | "DEAD_END" | "GATEWAY_WITHOUT_DEFAULT" | "MISSING_DIAGRAM" | "NOT_DEPLOYABLE";

/** One structural problem of a model; it still deploys unless the severity is "error". */
export interface StructuralFinding {
  severity: "error" | "warning";
  code: FindingCode;
  /** The element concerned (null for the file as a whole). */
  elementId: string | null;
  /** The process the element belongs to (null for the file as a whole). */
  processId: string | null;
  message: string;
}

const labelOf = (el: ElementModel) => `${el.type} '${el.id}'${el.name ? ` (${el.name})` : ""}`;

/** Elements a token can begin at without an incoming flow: start events, event subprocesses, link catch events. */
const isEntry = (el: ElementModel) =>
  el.type === "startEvent" ||
  (el.type === "subProcess" && !!el.triggeredByEvent) ||
  (el.type === "intermediateCatchEvent" && el.event?.kind === "link");

const isEndLike = (el: ElementModel) =>
  el.type === "endEvent" ||
  (el.type === "boundaryEvent" && el.event?.kind === "compensate") ||
  (el.type === "subProcess" && !!el.triggeredByEvent) ||
  (el.type === "intermediateThrowEvent" && el.event?.kind === "link");

/**
 * What a token can reach: from every entry of the process scope along sequence flows, into a container's own entries
 * (and an ad-hoc subprocess's free activities), and to the boundary events of every reached activity.
 */
function reachable(p: ProcessModel): Set<string> {
  const els = p.elements;
  const seen = new Set<string>();
  const queue = Object.values(els)
    .filter((e) => e.scope === p.id && isEntry(e))
    .map((e) => e.id);
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id) || !els[id]) continue;
    seen.add(id);
    const el = els[id];
    for (const f of el.outgoing) if (p.flows[f]) queue.push(p.flows[f].target);
    queue.push(...(el.boundaries ?? []));
    if (CONTAINERS.has(el.type))
      for (const child of Object.values(els))
        if (
          child.scope === id &&
          (isEntry(child) ||
            (el.type === "adHocSubProcess" && child.incoming.length === 0) ||
            el.implicitStarts?.includes(child.id))
        )
          queue.push(child.id);
  }
  return seen;
}

/**
 * The structural checks of one process, without a model and without deploying: orphans (no flow reaches them, or
 * no start event leads to them), dead ends (a non-end element no flow leaves), exclusive and inclusive gateways with
 * conditional outgoing flows and no default flow, and a missing diagram (BPMN DI) section.
 */
export function structuralFindings(p: ProcessModel): StructuralFinding[] {
  const out: StructuralFinding[] = [];
  const pre = `Process '${p.id}': `;
  const add = (severity: StructuralFinding["severity"], code: FindingCode, el: ElementModel | null, msg: string) =>
    out.push({ severity, code, elementId: el?.id ?? null, processId: p.id, message: `${pre}${msg}` });
  const reached = reachable(p);
  for (const el of Object.values(p.elements)) {
    if (el.forCompensation) continue;
    // Inside an ad-hoc subprocess unconnected activities are the point: the caller starts them, and they may simply end;
    // inside a subprocess without a start event they start by themselves, and a path without an end event just ends.
    const container = p.elements[el.scope];
    const inAdhoc = container?.type === "adHocSubProcess" || !!container?.implicitStarts;
    const scopeReached = el.scope === p.id || reached.has(el.scope);
    if (!isEntry(el) && el.type !== "boundaryEvent" && !inAdhoc && el.incoming.length === 0)
      add("warning", "ORPHAN", el, `${labelOf(el)} is an orphan: no sequence flow reaches it`);
    else if (!reached.has(el.id) && scopeReached && !inAdhoc && !(el.type === "boundaryEvent" && el.attachedTo))
      add("warning", "ORPHAN", el, `${labelOf(el)} is an orphan: no path from a start event reaches it`);
    if (!isEndLike(el) && !inAdhoc && el.outgoing.length === 0)
      add("warning", "DEAD_END", el, `${labelOf(el)} is a dead end: no sequence flow leaves it`);
    const conditional = el.outgoing.some((f) => p.flows[f]?.condition);
    if ((el.type === "exclusiveGateway" || el.type === "inclusiveGateway") && conditional && !el.default)
      add(
        "warning",
        "GATEWAY_WITHOUT_DEFAULT",
        el,
        `${labelOf(el)} has no default flow: an instance stops with an error when no condition holds`,
      );
  }
  if (!p.diagram || Object.keys(p.diagram.shapes).length === 0)
    add("warning", "MISSING_DIAGRAM", null, "the file has no diagram (BPMN DI) section");
  return out;
}

/** Text of a parse refusal for XML that is not BPMN at all (as opposed to a model the engine refuses to run). */
export const isMalformed = (message: string) => message.startsWith("Malformed BPMN XML") || /DOCTYPE/i.test(message);
