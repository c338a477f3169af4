import { UnprocessableError } from "../../errors";
import { decisionVariables } from "../../dmn/result-mapping";
import { scopeOf, valueOf } from "../scope";
import type { Behaviour } from "./behaviour";

/**
 * Evaluates a DMN decision through the injected evaluator and writes the result into the case variables: mapped to
 * its `resultVariable` when the model names one, else Flowable's default (engine/dmn/result-mapping.ts).
 */
export const decisionTask: Behaviour = {
  async start(run, pi, pm) {
    const evaluate = run.s.deps.decisions;
    if (!evaluate) throw new UnprocessableError(`Decision task '${pm.id}' cannot run: no decision engine is connected`);
    const key = String(valueOf(pm.decisionRef, scopeOf(run.lc, pi, pm)) ?? "");
    const answer = await evaluate(run.s.tenantId, key, { ...run.lc.instance.variables });
    Object.assign(run.lc.instance.variables, decisionVariables(answer, key, pm.decisionResult));
    await run.complete(pi);
  },
};
