import type { Behaviour } from "../behaviour";
import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import type { ElementModel } from "../../model/bpmn/types";

function store(run: Run, token: ExecutionRecord, el: ElementModel, result: unknown): void {
  const rv = el.rule!.resultVariable;
  if (rv) run.setVar(token, rv, result);
  else if (result && typeof result === "object" && !Array.isArray(result))
    for (const [k, v] of Object.entries(result)) run.setVar(token, k, v);
  else run.setVar(token, el.rule!.decisionKey!, result);
  run.leave(token);
}

/** Evaluates a DMN decision through the injected evaluator; an evaluation failure becomes an incident on this step. */
export const businessRuleTask: Behaviour = {
  execute(run, token, el) {
    const key = String(run.evalValue(token, el.rule!.decisionKey!));
    const evaluator = run.deps.decisions;
    if (!evaluator) return run.incident(token, el, `No decision engine is available to evaluate '${key}'`);
    const fail = (e: unknown) =>
      run.incident(token, el, `Decision '${key}' failed: ${(e as Error)?.message ?? String(e)}`);
    let out: ReturnType<typeof evaluator>;
    try {
      out = evaluator(token.tenantId, key, run.allVars(token));
    } catch (e) {
      return fail(e);
    }
    if (out && typeof (out as Promise<unknown>).then === "function")
      return (out as Promise<{ result: unknown }>).then((r) => store(run, token, el, r.result), fail);
    store(run, token, el, (out as { result: unknown }).result);
  },
};
