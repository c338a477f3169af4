import type { CriterionModel } from "../model/cmmn";
import { eventKey, indexOf } from "./model-index";
import type { CaseRun } from "./run";
import { holds, scopeOf } from "./scope";
import type { PlanItemInstance } from "./state";
import { scheduleListener } from "./timers";

/**
 * Stores an event in the memory of every criterion still listening for it; starts timers whose start trigger it is. Only
 * the items the model says listen to this element's event are visited; returns the items whose memory gained an on-part.
 */
export function recordEvent(
  run: CaseRun,
  ev: { item: PlanItemInstance; event: string },
  changed: Set<PlanItemInstance>,
): void {
  const { model, lc, s } = run;
  const ix = indexOf(model);
  const key = eventKey(ev.item.elementId, ev.event);
  for (const l of ix.listeners.get(key) ?? []) {
    const owners = l.owner === model.planModelId ? [run.root] : s.itemsOf(lc, l.owner);
    for (const pi of owners) {
      if (!run.living(pi) || pi === ev.item) continue;
      if (!l.exit && pi.state !== "AVAILABLE" && pi.state !== "WAITING_FOR_REPETITION") continue;
      const mem = (pi.data.memory[l.cr.id] ??= []);
      if (!mem.includes(l.onPartId)) {
        mem.push(l.onPartId);
        s.touch(lc, pi);
        changed.add(pi);
      }
    }
  }
  for (const el of ix.timerStarts.get(key) ?? []) {
    for (const pi of s.itemsOf(lc, el))
      if (pi.state === "AVAILABLE" && pi !== ev.item) scheduleListener(run, pi, run.pm(pi));
  }
}

/** A criterion holds when every on-part of its sentry was seen (memory) and its if-part, if any, is true now. */
export function satisfiedCriterion(run: CaseRun, pi: PlanItemInstance, cr: CriterionModel): boolean {
  const s = run.model.sentries[cr.sentryId];
  if (s.waitsForCaseFile) return false;
  const mem = pi.data.memory[cr.id] ?? [];
  if (!s.onParts.every((op) => mem.includes(op.id))) return false;
  if (s.condition === undefined) return true;
  return holds(s.condition, scopeOf(run.lc, pi, pi.type === "planModel" ? undefined : run.pm(pi)));
}

/**
 * Event listeners nobody can react to any more (every item whose sentries name them has ended or stopped listening)
 * are ended, as Flowable does, so they do not keep their stage open.
 */
export function orphanedListeners(run: CaseRun): PlanItemInstance[] {
  const { model, lc } = run;
  const listens = (ownerId: string, listenerElement: string): boolean => {
    if (ownerId === model.planModelId) return true;
    const pm = model.planItems[ownerId];
    const names = (crs: CriterionModel[]) =>
      crs.some((cr) => model.sentries[cr.sentryId].onParts.some((op) => op.sourceRef === listenerElement));
    const viaEntry = names(pm.entryCriteria),
      viaExit = names(pm.exitCriteria);
    const instances = run.s.itemsOf(lc, ownerId);
    if (!instances.length) return couldStillCreate(pm.parent);
    return instances.some(
      (i) =>
        (viaExit && run.living(i)) || (viaEntry && (i.state === "AVAILABLE" || i.state === "WAITING_FOR_REPETITION")),
    );
  };
  const couldStillCreate = (stageItemId: string | null): boolean => {
    if (stageItemId === null) return false;
    const inst = run.s.itemsOf(lc, stageItemId);
    if (!inst.length) return couldStillCreate(model.planItems[stageItemId].parent);
    return inst.some(
      (i) =>
        i.state === "AVAILABLE" ||
        i.state === "ENABLED" ||
        i.state === "DISABLED" ||
        i.state === "WAITING_FOR_REPETITION",
    );
  };
  const out: PlanItemInstance[] = [];
  for (const el of indexOf(model).eventListeners) {
    for (const pi of run.s.itemsOf(lc, el)) {
      if (pi.state !== "AVAILABLE") continue;
      const owners = model.referencedBy[pi.elementId] ?? [];
      if (owners.length > 0 && !owners.some((o) => listens(o, pi.elementId))) out.push(pi);
    }
  }
  return out.sort((a, b) => a.seq - b.seq);
}
