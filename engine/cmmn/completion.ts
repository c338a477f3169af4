import type { PlanItemModel } from "../model/cmmn";
import { holds, scopeOf } from "./scope";
import { DONE_FOR_PARENT, type LoadedCase, type PlanItemInstance } from "./state";

export interface CompletionCheck {
  /** no active or required work is left: a manual complete-stage may close it */
  completable: boolean;
  /** completable and, unless autoComplete, no optional work is still offered: the engine closes it by itself */
  shouldComplete: boolean;
  /** the item that prevents completion, when not completable */
  blocker?: PlanItemInstance;
}

/**
 * Flowable's completion rule for a stage or the case plan model, over its direct children: ended (and disabled, and
 * waiting-for-repetition) items do not count; an active item blocks unless it may be ignored after a first completion;
 * a required item blocks until done; available/enabled items only keep a non-autoComplete container open, unless
 * completion-neutral or ignored by their parent completion rule.
 */
export function checkCompletion(lc: LoadedCase, children: PlanItemInstance[], autoComplete: boolean): CompletionCheck {
  const model = lc.definition.model;
  let shouldComplete = true;
  const completedBefore = (pi: PlanItemInstance) =>
    lc.items.some(
      (o) => o.elementId === pi.elementId && o.stageInstanceId === pi.stageInstanceId && o.state === "COMPLETED",
    );
  for (const pi of children) {
    if (DONE_FOR_PARENT.has(pi.state)) continue;
    const pm: PlanItemModel = model.planItems[pi.elementId];
    const rule = pm.parentCompletionRule;
    if (rule === "ignore") continue;
    const scope = scopeOf(lc, pi, pm);
    const repeats = !!pm.repetition && holds(pm.repetition.condition, scope);
    const ignoredAfterFirst = () =>
      (rule === "ignoreAfterFirstCompletion" ||
        (rule === "ignoreAfterFirstCompletionIfAvailableOrEnabled" && pi.state !== "ACTIVE")) &&
      completedBefore(pi);
    // A failed agent step blocks like active work: it waits to be reactivated (or ended by a Manager or exit).
    if (pi.state === "ACTIVE" || pi.state === "FAILED") {
      if (ignoredAfterFirst()) continue;
      return { completable: false, shouldComplete: false, blocker: pi };
    }
    if (pm.required && holds(pm.required.condition, scope)) {
      if (!repeats) return { completable: false, shouldComplete: false, blocker: pi };
      if (ignoredAfterFirst()) continue;
      if (!completedBefore(pi)) return { completable: false, shouldComplete: false, blocker: pi };
      shouldComplete &&= autoComplete;
    }
    if (rule === "ignoreIfAvailableOrEnabled" && (pi.state === "AVAILABLE" || pi.state === "ENABLED")) continue;
    if ((rule === "ignoreIfAvailable" || pm.completionNeutral) && pi.state === "AVAILABLE") continue;
    if (repeats && ignoredAfterFirst()) continue;
    if (pi.state === "AVAILABLE" || pi.state === "ENABLED") shouldComplete &&= autoComplete;
  }
  return { completable: true, shouldComplete };
}
