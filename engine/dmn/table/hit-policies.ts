import { DmnEvaluationError } from "../errors";
import { describe } from "../coerce";
import { feelEquals } from "../../feel";
import type { EvalState, Vars } from "../types";
import { aggregate } from "./aggregate";
import type { CompiledRule, CompiledTable } from "./types";

interface Hit {
  rule?: CompiledRule;
  values: unknown[];
}

/** Turn the matched rules into the table's result as the hit policy dictates; records the contributing rule ids in `state`. */
export function applyHitPolicy(t: CompiledTable, matched: CompiledRule[], vars: Vars, state: EvalState): unknown {
  if (matched.length === 0) return noMatch(t, vars, state);
  const policy = t.hitPolicy;
  if (policy === "UNIQUE" && matched.length > 1) {
    throw new DmnEvaluationError(
      `UNIQUE hit policy violated: rules ${matched.map((r) => `'${r.id}'`).join(", ")} all match`,
      {
        decision: t.owner,
        rule: matched[1].id,
      },
    );
  }
  if (policy === "UNIQUE" || policy === "FIRST") return single(t, hit(t, matched[0], vars), state);

  const hits = matched.map((r) => hit(t, r, vars));
  switch (policy) {
    case "ANY": {
      const differing = hits.find((h) => !feelEquals(h.values, hits[0].values));
      if (differing) {
        throw new DmnEvaluationError(
          `ANY hit policy violated: rules '${hits[0].rule!.id}' and '${differing.rule!.id}' give different outputs`,
          {
            decision: t.owner,
            rule: differing.rule!.id,
          },
        );
      }
      return single(t, hits[0], state);
    }
    case "PRIORITY":
      return single(t, byPriority(t, hits)[0], state);
    case "OUTPUT ORDER":
      return list(t, byPriority(t, hits), state);
    case "RULE ORDER":
      return list(t, hits, state);
    default:
      if (!t.aggregation) return list(t, hits, state);
      record(state, hits);
      return aggregate(
        t,
        hits.map((h) => h.values[0]),
      );
  }
}

function hit(t: CompiledTable, rule: CompiledRule, vars: Vars): Hit {
  const values = rule.outputs.map((out, k) => {
    const output = t.outputs[k];
    const v = output.conform ? output.conform(out(vars)) : out(vars);
    if (output.allowed && v !== null && !output.allowed.test(v, vars)) {
      throw new DmnEvaluationError(
        `output '${output.name}' value ${describe(v)} is not among its allowed values ${output.allowed.text}`,
        {
          decision: t.owner,
          rule: rule.id,
          expression: rule.outputTexts[k],
        },
      );
    }
    return v;
  });
  return { rule, values };
}

// No rule matched: the default output entries if there are any, else null.
function noMatch(t: CompiledTable, vars: Vars, state: EvalState): unknown {
  if (!t.outputs.some((o) => o.defaultEntry)) return null;
  const value = (o: CompiledTable["outputs"][number]) => (o.defaultEntry ? o.defaultEntry(vars) : null);
  const defaults: Hit = { values: t.outputs.map((o) => (o.conform ? o.conform(value(o)) : value(o))) };
  if (t.aggregation) return aggregate(t, [defaults.values[0]]);
  return ["COLLECT", "RULE ORDER", "OUTPUT ORDER"].includes(t.hitPolicy)
    ? list(t, [defaults], state)
    : single(t, defaults, state);
}

function shape(t: CompiledTable, values: unknown[]): unknown {
  if (t.outputs.length === 1) return values[0];
  const out: Record<string, unknown> = {};
  t.outputs.forEach((o, k) => (out[o.name] = values[k]));
  return out;
}

function single(t: CompiledTable, h: Hit, state: EvalState): unknown {
  record(state, [h]);
  return shape(t, h.values);
}

function list(t: CompiledTable, hits: Hit[], state: EvalState): unknown[] {
  record(state, hits);
  return hits.map((h) => shape(t, h.values));
}

function record(state: EvalState, hits: Hit[]): void {
  for (const h of hits) if (h.rule) state.matchedRules.push(h.rule.id);
}

// Rank of each output value in its output values list, compared output by output; stable, so ties keep rule order.
function byPriority(t: CompiledTable, hits: Hit[]): Hit[] {
  const rank = (k: number, v: unknown) => {
    const list = t.outputs[k].priorities;
    const i = list ? list.findIndex((p) => feelEquals(p, v)) : -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  const keys = new Map(hits.map((h) => [h, h.values.map((v, k) => rank(k, v))]));
  return [...hits].sort((a, b) => {
    const ka = keys.get(a)!;
    const kb = keys.get(b)!;
    for (let k = 0; k < ka.length; k++) if (ka[k] !== kb[k]) return ka[k] - kb[k];
    return 0;
  });
}
