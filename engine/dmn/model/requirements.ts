import { DmnParseError } from "../errors";
import type { DrgDef } from "../types";

/** Refuse a model whose decisions require themselves, directly or not: evaluation would never end. */
export function checkAcyclic(elements: Record<string, DrgDef>): void {
  const state = new Map<string, "visiting" | "done">();
  const visit = (id: string) => {
    const s = state.get(id);
    if (s === "done") return;
    if (s === "visiting") throw new DmnParseError("decision requirements form a cycle", id);
    state.set(id, "visiting");
    const el = elements[id];
    if (el?.kind === "decision") el.requiredDecisions.forEach(visit);
    state.set(id, "done");
  };
  Object.keys(elements).forEach(visit);
}
