import type { ProcessModel } from "../../../engine/model/bpmn";

/** Where completing a task can lead: one entry per reachable next element, through any gateways on the way. */
export interface TaskPath {
  /** The first sequence flow leaving the task. */
  flowId: string;
  target: { id: string; name: string; type: string };
  /** Gateways passed on the way, in order. */
  via: string[];
  /** The conditions of the flows on the way, as written in the model (never evaluated); empty when none. */
  conditions: string[];
  conditional: boolean;
  /** The path is a gateway's default flow (taken when no condition holds). */
  isDefault: boolean;
}

const isGateway = (type: string) => type.endsWith("Gateway");

/**
 * The paths out of an activity as the model states them, without evaluating anything (MCP preview, rule 3): a
 * conditional path is reported as conditional with its condition text. Gateways are walked through; a loop back to an
 * element already on the path stops there.
 */
export function pathsFrom(model: ProcessModel, activityId: string): TaskPath[] {
  const out: TaskPath[] = [];
  const walk = (flowIds: string[], first: string | null, via: string[], conds: string[], dflt: boolean) => {
    for (const fid of flowIds) {
      const flow = model.flows[fid];
      const target = flow && model.elements[flow.target];
      if (!flow || !target) continue;
      const source = model.elements[flow.source];
      const conditions = flow.condition ? [...conds, flow.condition] : conds;
      const isDefault = dflt || source?.default === fid;
      if (isGateway(target.type) && !via.includes(target.id) && target.outgoing.length) {
        walk(target.outgoing, first ?? fid, [...via, target.id], conditions, isDefault);
        continue;
      }
      out.push({
        flowId: first ?? fid,
        target: { id: target.id, name: target.name, type: target.type },
        via,
        conditions,
        conditional: conditions.length > 0,
        isDefault,
      });
    }
  };
  const activity = model.elements[activityId];
  if (activity) walk(activity.outgoing, null, [], [], false);
  return out;
}
