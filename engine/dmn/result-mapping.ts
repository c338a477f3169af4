import { UnprocessableError } from "../errors";
import type { DmnModel } from "./types";

/** Camunda's (and Flowable's) predefined mappings of a decision result to one variable. */
export const DECISION_RESULT_MAPPINGS = ["singleEntry", "singleResult", "collectEntries", "resultList"] as const;
export type DecisionResultMapping = (typeof DECISION_RESULT_MAPPINGS)[number];

export const isDecisionResultMapping = (v: string): v is DecisionResultMapping =>
  (DECISION_RESULT_MAPPINGS as readonly string[]).includes(v);

/** A decision's answer as an engine task sees it: the value, the rules that matched and the output names. */
export interface EngineDecisionResult {
  result: unknown;
  matchedRules?: string[];
  /** names of the outputs (a table's output columns; else the decision key) */
  outputs?: string[];
}

/** The names a decision's result entries carry: its table's output names, else (an unnamed output, no table) its key. */
export function outputNamesOf(model: DmnModel, key: string): string[] {
  const el = model.elements[key] ?? model.elements[model.idsByName[key] ?? ""];
  const table = el?.kind === "decision" ? el.logic?.table : undefined;
  return table ? table.outputs.map((o) => o.name || key) : [key];
}

const isEntries = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * The result as Camunda's rule list: one map of output name → value per matched rule. A list result (collect) is one
 * rule per item; null with no matched rule is no rule; a scalar carries the (single) output's name.
 */
export function ruleResults(r: EngineDecisionResult, decisionKey: string): Array<Record<string, unknown>> {
  const name = r.outputs?.[0] ?? decisionKey;
  const entries = (v: unknown) => (isEntries(v) ? v : { [name]: v });
  if (Array.isArray(r.result)) return r.result.map(entries);
  if (r.result === null || r.result === undefined) return r.matchedRules?.length ? [{ [name]: null }] : [];
  return [entries(r.result)];
}

/** Applies a predefined mapping; a result the mapping cannot take (two rules for a single result...) is an error. */
export function mapDecisionResult(
  r: EngineDecisionResult,
  decisionKey: string,
  mapping: DecisionResultMapping,
): unknown {
  const rules = ruleResults(r, decisionKey);
  const fail = (why: string) =>
    new UnprocessableError(`Decision '${decisionKey}': the result cannot be mapped as ${mapping}: ${why}`);
  const single = () => {
    if (rules.length > 1) throw fail(`${rules.length} rules matched, one expected`);
    return rules[0];
  };
  const only = (entries: Record<string, unknown>) => {
    const values = Object.values(entries);
    if (values.length !== 1) throw fail(`a rule has ${values.length} outputs, one expected`);
    return values[0];
  };
  switch (mapping) {
    case "singleEntry": {
      const rule = single();
      return rule ? only(rule) : null;
    }
    case "singleResult":
      return single() ?? null;
    case "collectEntries":
      return rules.map(only);
    case "resultList":
      return rules;
  }
}

/**
 * The variables a decision task writes. With a result variable: the mapped result under it. Without (Flowable's
 * default): one matched rule's outputs become variables of their own names; several rules (or a list result) become
 * the list of rule maps under the decision key; nothing matched writes nothing.
 */
export function decisionVariables(
  r: EngineDecisionResult,
  decisionKey: string,
  target?: { variable: string; mapping: DecisionResultMapping },
): Record<string, unknown> {
  if (target) return { [target.variable]: mapDecisionResult(r, decisionKey, target.mapping) };
  const rules = ruleResults(r, decisionKey);
  if (Array.isArray(r.result) || rules.length > 1) return { [decisionKey]: rules };
  return rules[0] ?? {};
}
