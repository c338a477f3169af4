import { DmnEvaluationError } from "../errors";
import { describe } from "../coerce";
import { FeelDate } from "feelin";
import type { CompiledTable } from "./types";

/** COLLECT with SUM, MIN, MAX or COUNT over the outputs of the matched rules; nulls do not count (as in FEEL's list functions). */
export function aggregate(t: CompiledTable, values: unknown[]): unknown {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (t.aggregation === "COUNT") return present.length;
  if (present.length === 0) return null;
  if (t.aggregation === "SUM") {
    const bad = present.find((v) => typeof v !== "number");
    if (bad !== undefined) throw notAggregable(t, bad);
    return (present as number[]).reduce((a, b) => a + b, 0);
  }
  const keyed = present.map((v) => ({ v, key: sortKey(v) }));
  const kinds = new Set(keyed.map((k) => typeof k.key));
  const bad = keyed.find((k) => k.key === undefined);
  if (bad) throw notAggregable(t, bad.v);
  if (kinds.size > 1)
    throw new DmnEvaluationError(`${t.aggregation} over values of different types`, { decision: t.owner });
  const pick =
    t.aggregation === "MIN"
      ? (a: (typeof keyed)[0], b: (typeof keyed)[0]) => (b.key! < a.key! ? b : a)
      : (a: (typeof keyed)[0], b: (typeof keyed)[0]) => (b.key! > a.key! ? b : a);
  return keyed.reduce(pick).v;
}

// Numbers and strings compare as themselves, dates by their canonical ISO form.
function sortKey(v: unknown): number | string | undefined {
  if (typeof v === "number" || typeof v === "string") return v;
  if (v instanceof FeelDate) return `d${v.iso}`;
  return undefined;
}

function notAggregable(t: CompiledTable, v: unknown): DmnEvaluationError {
  return new DmnEvaluationError(`cannot ${t.aggregation} the output value ${describe(v)}`, { decision: t.owner });
}
