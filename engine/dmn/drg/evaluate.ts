import { DmnDecisionNotFoundError, DmnError, DmnEvaluationError } from "../errors";
import { isContextValue } from "../../feel";
import type { DecisionResult, DmnModel } from "../types";
import { evaluateService, Session } from "./session";

/**
 * Evaluate a decision (or decision service) by id, or failing that by name, after everything it requires.
 * `result` holds FEEL values (temporals serialise to ISO strings); errors are DmnError subclasses, never raw ones.
 */
export function evaluateDecision(
  model: DmnModel,
  decisionKey: string,
  variables: Record<string, unknown> = {},
): DecisionResult {
  const el = model.elements[decisionKey] ?? model.elements[model.idsByName[decisionKey] ?? ""];
  if (!el || (el.kind !== "decision" && el.kind !== "decisionService")) throw new DmnDecisionNotFoundError(decisionKey);
  if (!isContextValue(variables))
    throw new DmnEvaluationError("variables must be an object of names to values", { decision: el.name });
  try {
    const out =
      el.kind === "decision" ? new Session(model, variables).decision(el) : evaluateService(model, el, variables);
    return { result: out.value, matchedRules: out.matchedRules };
  } catch (e) {
    if (e instanceof DmnError) throw e;
    // A bug of ours or of feelin must still reach the caller as a typed error.
    throw new DmnEvaluationError(`evaluation failed: ${(e as Error)?.message ?? String(e)}`, { decision: el.name });
  }
}
