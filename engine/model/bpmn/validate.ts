import type { ProcessModel } from "./types";

/** Options for validation: which delegate names the runtime knows. */
export interface ValidateOptions {
  knownDelegate?: (name: string) => boolean;
}

/** Model smells worth a warning (the model still deploys): orphans, dead ends, gateways with no default, no diagram, unknown delegates. */
export function validateProcess(p: ProcessModel, opts: ValidateOptions = {}): string[] {
  const w: string[] = [];
  const pre = `Process '${p.id}': `;
  for (const el of Object.values(p.elements)) {
    const label = `${el.type} '${el.id}'${el.name ? ` (${el.name})` : ""}`;
    if (el.forCompensation) continue;
    // Inside an ad-hoc subprocess, unconnected activities are the point: the caller starts them, and they may simply end.
    const inAdhoc = p.elements[el.scope]?.type === "adHocSubProcess";
    const isStartLike =
      el.type === "startEvent" ||
      el.type === "boundaryEvent" ||
      (el.type === "intermediateCatchEvent" && el.event?.kind === "link") ||
      (el.type === "subProcess" && el.triggeredByEvent);
    if (!isStartLike && !inAdhoc && el.incoming.length === 0)
      w.push(`${pre}${label} is an orphan: no sequence flow reaches it`);
    const isEndLike =
      (el.type === "boundaryEvent" && el.event?.kind === "compensate") ||
      el.type === "endEvent" ||
      (el.type === "subProcess" && el.triggeredByEvent) ||
      (el.type === "intermediateThrowEvent" && el.event?.kind === "link");
    if (!isEndLike && !inAdhoc && el.outgoing.length === 0)
      w.push(`${pre}${label} is a dead end: no sequence flow leaves it`);
    if ((el.type === "exclusiveGateway" || el.type === "inclusiveGateway") && el.outgoing.length > 1 && !el.default)
      w.push(`${pre}${label} has no default flow: an instance stops with an error when no condition holds`);
    const impl = el.service?.delegate;
    if (el.service && !el.rule && !el.service.expression && !el.service.robot && el.type === "serviceTask") {
      if (!impl) w.push(`${pre}${label} has no implementation: it will raise an incident when reached`);
      else if (opts.knownDelegate && !opts.knownDelegate(impl))
        w.push(`${pre}${label} uses unknown implementation '${impl}': it will raise an incident when reached`);
    }
  }
  if (!p.diagram || Object.keys(p.diagram.shapes).length === 0)
    w.push(`${pre}the file has no diagram (BPMN DI) section`);
  return w;
}
