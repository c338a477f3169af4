import { UnprocessableError } from "../../errors";
import { scopeOf, valueOf } from "../scope";
import type { Behaviour } from "./behaviour";

/** Evaluates a DMN decision through the injected evaluator: an object result is merged into the case variables, another value is stored under the decision key. */
export const decisionTask: Behaviour = {
  async start(run, pi, pm) {
    const evaluate = run.s.deps.decisions;
    if (!evaluate) throw new UnprocessableError(`Decision task '${pm.id}' cannot run: no decision engine is connected`);
    const key = String(valueOf(pm.decisionRef, scopeOf(run.lc, pi, pm)) ?? "");
    const { result } = await evaluate(run.s.tenantId, key, { ...run.lc.instance.variables });
    const vars = run.lc.instance.variables;
    if (result && typeof result === "object" && !Array.isArray(result)) Object.assign(vars, result);
    else vars[key] = result ?? null;
    await run.complete(pi);
  },
};
