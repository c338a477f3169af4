import type { DecisionStore, DecisionVersion } from "../../runtime/dmn/decision-store";
import type { Clock } from "../clock";
import { NotFoundError } from "../errors";

export type DecisionRow = DecisionVersion;

/** What the decision operations need: the runtime's decision store and the clock. */
export interface DecisionDb {
  decisionStore: DecisionStore;
  clock: Clock;
}

/** Latest version of one decision key in a tenant, or 404. */
export function latestDecision(p: DecisionDb, tenantId: string, key: string): DecisionRow {
  const row = p.decisionStore.latest(tenantId, key);
  if (!row) throw new NotFoundError(`Decision '${key}' not found`);
  return row;
}

export const decisionVersions = (p: DecisionDb, tenantId: string, key: string): DecisionRow[] =>
  p.decisionStore.versions(tenantId, key);

/** Latest version of every decision key of a tenant. */
export const latestDecisions = (p: DecisionDb, tenantId: string): DecisionRow[] =>
  p.decisionStore.latestOfEach(tenantId);
