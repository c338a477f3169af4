import { DmnEvaluationError } from "../errors";
import { baseType, coerceInput, describe } from "../coerce";
import type { EvalState, Evaluator, Vars } from "../types";
import { applyHitPolicy } from "./hit-policies";
import type { CompiledInput, CompiledRule, CompiledTable } from "./types";

const TEMPORAL = new Set(["date", "time", "date and time", "dt duration", "ym duration", "duration"]);

/** The evaluator of a compiled table: compute the inputs once, test the rules, let the hit policy shape the result. */
export function createTableEvaluator(t: CompiledTable): Evaluator {
  const stopAtFirst = t.hitPolicy === "FIRST";
  return (vars: Vars, state: EvalState) => {
    const values = t.inputs.map((input) => inputValue(input, vars, t));
    const matched: CompiledRule[] = [];
    for (const rule of t.rules) {
      if (ruleMatches(rule, values, vars)) {
        matched.push(rule);
        if (stopAtFirst) break;
      }
    }
    return applyHitPolicy(t, matched, vars, state);
  };
}

function ruleMatches(rule: CompiledRule, values: unknown[], vars: Vars): boolean {
  const tests = rule.tests;
  for (let i = 0; i < tests.length; i++) {
    if (!tests[i](values[i], vars)) return false;
  }
  return true;
}

function inputValue(input: CompiledInput, vars: Vars, t: CompiledTable): unknown {
  let v = input.expr(vars);
  // A JSON caller can only send dates and durations as strings; the declared typeRef says what they are.
  if (typeof v === "string" && TEMPORAL.has(baseType(input.typeRef) ?? "")) {
    v = coerceInput(v, input.typeRef, {}, { label: input.label, decision: t.owner });
  }
  if (input.allowed && v !== null && v !== undefined && !input.allowed.test(v, vars)) {
    throw new DmnEvaluationError(
      `input '${input.label}' value ${describe(v)} is not among its allowed values ${input.allowed.text}`,
      {
        decision: t.owner,
        expression: input.text,
      },
    );
  }
  return v;
}
