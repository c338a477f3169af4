import { attr } from "./attrs";
import type { Moddle } from "./moddle";
import type { PlanItemModel } from "./types";

/**
 * Who does a plain task's work, with the same markup as BPMN service tasks (docs/cmmn-engine.md): a robot
 * (`pms:robot`, or Camunda's `camunda:type="external" camunda:topic`) or an AI agent (`pms:agent`, optionally with
 * `flowable:type="agent"`). Such a task always waits for its worker, so `isBlocking="false"` is refused. Answers the
 * reason the model cannot deploy, or null.
 */
export function readTaskImplementation(def: Moddle, item: PlanItemModel): string | null {
  const kind = attr(def, "type");
  const robot = attr(def, "robot") ?? (kind === "external" ? attr(def, "topic") : undefined);
  if (kind === "external" && !robot) return `External task '${def.id}' names no camunda:topic`;
  const agent = attr(def, "agent");
  if (robot && agent) return `Task '${def.id}' names both a robot and an agent`;
  if ((robot || agent) && !item.isBlocking)
    return `Task '${def.id}' runs a ${robot ? "robot" : "agent"}: it waits for its worker, so isBlocking="false" is not supported`;
  if (robot) item.robot = robot;
  else if (agent) item.agent = agent;
  else if (kind && kind !== "agent") item.implementation = kind;
  return null;
}
