import { compileExpression, compileValue, isTrue, type VarScope } from "../expressions";
import type { PlanItemModel } from "../model/cmmn";
import type { LoadedCase, PlanItemInstance } from "./state";

/** Variables an expression of a plan item sees: the case's, plus the repetition counter of that item. */
export function scopeOf(lc: LoadedCase, pi?: PlanItemInstance, pm?: PlanItemModel): VarScope {
  const vars = lc.instance.variables;
  const counterName = pm?.repetition?.counterVariable;
  const extra: Record<string, unknown> = counterName && pi ? { [counterName]: pi.data.counter } : {};
  return {
    get: (n) => (n in extra ? extra[n] : vars[n]),
    all: () => ({ ...vars, ...extra }),
  };
}

/** A rule's condition: an absent condition holds. */
export function holds(cond: string | undefined, scope: VarScope): boolean {
  if (cond === undefined) return true;
  return isTrue(compileExpression(cond)(scope));
}

/** Evaluates an attribute that may be a literal or an expression (assignee, timer expression...). */
export function valueOf(src: string | undefined, scope: VarScope): unknown {
  if (src === undefined) return undefined;
  return compileValue(src)(scope);
}
