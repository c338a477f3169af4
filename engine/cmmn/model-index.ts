import type { CaseModel, CriterionModel } from "../model/cmmn";

/** A criterion that listens for one standard event of one source element. */
export interface Listening {
  owner: string;
  cr: CriterionModel;
  exit: boolean;
  onPartId: string;
}

/**
 * What the interpreter looks up per event instead of scanning every plan item: who listens to an element's event, which
 * items must be re-checked on every settle (if-parts, sentries without on-parts), and whether the model has listeners or
 * onEvent sentries at all. Built once per case model (models are cached per definition version).
 */
export interface ModelIndex {
  /** `${sourceElementId} ${event}` → criteria with an on-part for it (owner: plan item element id or the plan model id) */
  listeners: Map<string, Listening[]>;
  /** `${sourceElementId} ${event}` → timer event listener element ids started by it */
  timerStarts: Map<string, string[]>;
  /** plan item element ids with a criterion whose sentry has an if-part or no on-part: satisfiable without a new event */
  alwaysCheck: string[];
  /** element ids of user and timer event listeners */
  eventListeners: string[];
  hasOnEvent: boolean;
}

const cache = new WeakMap<CaseModel, ModelIndex>();
export const eventKey = (source: string, event: string) => `${source} ${event}`;

export function indexOf(model: CaseModel): ModelIndex {
  const hit = cache.get(model);
  if (hit) return hit;
  const ix: ModelIndex = {
    listeners: new Map(),
    timerStarts: new Map(),
    alwaysCheck: [],
    eventListeners: [],
    hasOnEvent: false,
  };
  const add = (owner: string, crs: CriterionModel[], exit: boolean): boolean => {
    let always = false;
    for (const cr of crs) {
      const s = model.sentries[cr.sentryId];
      if (s.triggerMode === "onEvent") ix.hasOnEvent = true;
      if (s.condition !== undefined || (!s.onParts.length && !s.waitsForCaseFile)) always = true;
      for (const op of s.onParts) {
        const k = eventKey(op.sourceRef, op.event);
        const list = ix.listeners.get(k) ?? [];
        list.push({ owner, cr, exit, onPartId: op.id });
        ix.listeners.set(k, list);
      }
    }
    return always;
  };
  add(model.planModelId, model.exitCriteria, true);
  for (const pm of Object.values(model.planItems)) {
    const entry = add(pm.id, pm.entryCriteria, false);
    const exit = add(pm.id, pm.exitCriteria, true);
    if (entry || exit) ix.alwaysCheck.push(pm.id);
    if (pm.type === "userEventListener" || pm.type === "timerEventListener") ix.eventListeners.push(pm.id);
    const trig = pm.timer?.startTrigger;
    if (trig) {
      const k = eventKey(trig.sourceRef, trig.event);
      ix.timerStarts.set(k, [...(ix.timerStarts.get(k) ?? []), pm.id]);
    }
  }
  cache.set(model, ix);
  return ix;
}
