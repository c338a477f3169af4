import type { DmnModel } from "../types";

/** The decisions of a model as `{key, name}` (key = the decision's id), in document order: what a deployment registers. */
export function listDecisions(model: DmnModel): { key: string; name: string }[] {
  return Object.values(model.elements)
    .filter((e) => e.kind === "decision")
    .map((e) => ({ key: e.id, name: e.name }));
}
