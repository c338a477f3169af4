import { ConflictError, NotFoundError } from "../errors";
import type { ElementModel } from "../model/bpmn/types";
import { completeAdhoc } from "./elements/adhoc-sub-process";
import type { Run } from "./run";
import type { InstanceSpace, Session } from "./session";
import type { ExecutionRecord } from "./state";

export interface EnabledAdhocActivity {
  subProcessId: string;
  activityId: string;
  name: string;
  type: string;
}

function activeSpace(s: Session, instanceId: string): InstanceSpace {
  const space = s.require(instanceId);
  const st = space.instance.state;
  if (st === "COMPLETED" || st === "CANCELLED") throw new ConflictError(`Instance ${instanceId} has already ended`);
  if (st === "SUSPENDED") throw new ConflictError(`Instance ${instanceId} is suspended`);
  return space;
}

/** Scope executions of the running ad-hoc subprocesses of an instance, oldest first, with their element. */
function adhocScopes(s: Session, space: InstanceSpace): Array<{ scope: ExecutionRecord; el: ElementModel }> {
  const model = s.definition(space.instance.definitionId).model;
  const out: Array<{ scope: ExecutionRecord; el: ElementModel }> = [];
  for (const e of space.executions.values()) {
    const el = e.kind === "scope" && e.parentId ? model.elements[e.scopeId!] : undefined;
    if (el?.adhoc) out.push({ scope: e, el });
  }
  return out.sort((a, b) => a.scope.createdAt - b.scope.createdAt || (a.scope.id < b.scope.id ? -1 : 1));
}

/** The activities a caller may start now in the instance's running ad-hoc subprocesses (Flowable lists them whatever the ordering). */
export function enabledAdhocActivities(s: Session, instanceId: string): EnabledAdhocActivity[] {
  const space = s.require(instanceId);
  if (space.instance.state === "COMPLETED" || space.instance.state === "CANCELLED") return [];
  const model = s.definition(space.instance.definitionId).model;
  return adhocScopes(s, space).flatMap(({ el }) =>
    el.adhoc!.enabled.map((id) => {
      const a = model.elements[id];
      return { subProcessId: el.id, activityId: id, name: a.name || id, type: a.type };
    }),
  );
}

/**
 * Starts an enabled activity inside the running ad-hoc subprocess that contains it (the oldest, should several run).
 * A sequential ad-hoc subprocess refuses while one of its activities still runs.
 */
export function executeAdhocActivity(
  run: Run,
  instanceId: string,
  activityId: string,
  variables?: Record<string, unknown>,
): ExecutionRecord {
  const space = activeSpace(run.s, instanceId);
  const model = run.s.definition(space.instance.definitionId).model;
  const found = adhocScopes(run.s, space).find(({ el }) => model.elements[activityId]?.scope === el.id);
  if (!found)
    throw new ConflictError(`No running ad-hoc subprocess of instance ${instanceId} contains activity '${activityId}'`);
  const { scope, el } = found;
  if (!el.adhoc!.enabled.includes(activityId))
    throw new ConflictError(
      `Activity '${activityId}' of ad-hoc subprocess '${el.id}' cannot be started: a sequence flow leads to it, or it is a boundary event, event subprocess or compensation handler`,
    );
  if (el.adhoc!.sequential && run.children(scope).length)
    throw new ConflictError(`Sequential ad-hoc subprocess '${el.id}' already runs an activity: complete it first`);
  const token = run.newToken(scope);
  for (const [k, v] of Object.entries(variables ?? {})) run.setVar(token, k, v);
  run.schedule(() => run.enter(token, activityId));
  return token;
}

/** Completes a running ad-hoc subprocess on the caller's word; refused while any of its activities still runs. */
export function completeAdhocSubProcess(run: Run, instanceId: string, subProcessId: string): void {
  const space = activeSpace(run.s, instanceId);
  const found = adhocScopes(run.s, space).find(({ el }) => el.id === subProcessId);
  if (!found) {
    const el = run.s.definition(space.instance.definitionId).model.elements[subProcessId];
    if (!el?.adhoc) throw new NotFoundError(`Instance ${instanceId} has no ad-hoc subprocess '${subProcessId}'`);
    throw new ConflictError(`Ad-hoc subprocess '${subProcessId}' of instance ${instanceId} is not running`);
  }
  if (run.children(found.scope).length)
    throw new ConflictError(`Ad-hoc subprocess '${subProcessId}' has running activities that must complete first`);
  completeAdhoc(run, found.scope);
}
