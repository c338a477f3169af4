import type { CriterionModel } from "../model/cmmn";
import type { CaseRun } from "./run";
import { holds, scopeOf } from "./scope";
import type { PlanItemInstance } from "./state";
import { scheduleListener } from "./timers";

/** Stores an event in the memory of every criterion still listening for it; starts timers whose start trigger it is. */
export function recordEvent(run: CaseRun, ev: { item: PlanItemInstance; event: string }): void {
  const { model } = run;
  const remember = (pi: PlanItemInstance, cr: CriterionModel) => {
    const s = model.sentries[cr.sentryId];
    for (const op of s.onParts) {
      if (op.sourceRef !== ev.item.elementId || op.event !== ev.event) continue;
      const mem = (pi.data.memory[cr.id] ??= []);
      if (!mem.includes(op.id)) { mem.push(op.id); run.s.touch(run.lc, pi); }
    }
  };
  for (const pi of run.lc.items) {
    if (!run.living(pi) || pi === ev.item) continue;
    if (pi.type === "planModel") { for (const cr of model.exitCriteria) remember(pi, cr); continue; }
    const pm = run.pm(pi);
    if (pi.state === "AVAILABLE" || pi.state === "WAITING_FOR_REPETITION") for (const cr of pm.entryCriteria) remember(pi, cr);
    for (const cr of pm.exitCriteria) remember(pi, cr);
    const trig = pm.timer?.startTrigger;
    if (trig && pi.state === "AVAILABLE" && trig.sourceRef === ev.item.elementId && trig.event === ev.event) scheduleListener(run, pi, pm);
  }
}

/** A criterion holds when every on-part of its sentry was seen (memory) and its if-part, if any, is true now. */
export function satisfiedCriterion(run: CaseRun, pi: PlanItemInstance, cr: CriterionModel): boolean {
  const s = run.model.sentries[cr.sentryId];
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
    const names = (crs: CriterionModel[]) => crs.some((cr) => model.sentries[cr.sentryId].onParts.some((op) => op.sourceRef === listenerElement));
    const viaEntry = names(pm.entryCriteria), viaExit = names(pm.exitCriteria);
    const instances = lc.items.filter((i) => i.elementId === ownerId);
    if (!instances.length) return couldStillCreate(pm.parent);
    return instances.some((i) => (viaExit && run.living(i)) || (viaEntry && (i.state === "AVAILABLE" || i.state === "WAITING_FOR_REPETITION")));
  };
  const couldStillCreate = (stageItemId: string | null): boolean => {
    if (stageItemId === null) return false;
    const inst = lc.items.filter((i) => i.elementId === stageItemId);
    if (!inst.length) return couldStillCreate(model.planItems[stageItemId].parent);
    return inst.some((i) => i.state === "AVAILABLE" || i.state === "ENABLED" || i.state === "DISABLED" || i.state === "WAITING_FOR_REPETITION");
  };
  return lc.items.filter((pi) => {
    if (pi.state !== "AVAILABLE" || (pi.type !== "userEventListener" && pi.type !== "timerEventListener")) return false;
    const owners = model.referencedBy[pi.elementId] ?? [];
    return owners.length > 0 && !owners.some((o) => listens(o, pi.elementId));
  });
}
