import { isAdmin, isManager, type Actor } from "../context";
import { ForbiddenError } from "../errors";

export type Confidentiality = "PUBLIC" | "SECRET" | "TOP_SECRET";
export const CONFIDENTIALITY_LEVELS: readonly Confidentiality[] = ["PUBLIC", "SECRET", "TOP_SECRET"];
const RANK: Record<Confidentiality, number> = { PUBLIC: 0, SECRET: 1, TOP_SECRET: 2 };

/**
 * The level a caller may read (confidentiality rules 1 and 4): from the tenant role only, an API key is fixed at
 * PUBLIC. The system (robots, engine steps) is not bounded by confidentiality. AI agents do not come through here:
 * they pass their own clearance to the query service (rule 5).
 */
export function clearanceOf(actor: Actor): Confidentiality {
  if (actor.kind === "system" || actor.kind === "robot") return "TOP_SECRET";
  if (actor.kind === "apiKey") return "PUBLIC";
  if (isAdmin(actor)) return "TOP_SECRET";
  if (isManager(actor)) return "SECRET";
  return "PUBLIC";
}

export const canRead = (level: Confidentiality, clearance: Confidentiality) => RANK[level] <= RANK[clearance];

/** The lower of two levels (the playground rule: the user's level bounded by the agent's). */
export const lowerOf = (a: Confidentiality, b: Confidentiality): Confidentiality => (RANK[a] <= RANK[b] ? a : b);

/** Levels at or below `clearance`, for SQL `IN (...)` filters on listings. */
export const levelsUpTo = (clearance: Confidentiality) => CONFIDENTIALITY_LEVELS.filter((l) => canRead(l, clearance));

export function assertCanRead(level: Confidentiality, clearance: Confidentiality): void {
  if (!canRead(level, clearance))
    throw new ForbiddenError(`This collection is classified ${level}, above your clearance ${clearance}`);
}

/** Rule 3: whoever classifies must hold the level; in practice a Manager cannot classify TOP_SECRET. */
export function assertCanClassify(actor: Actor, level: Confidentiality): void {
  const clearance = clearanceOf(actor);
  if (!canRead(level, clearance))
    throw new ForbiddenError(`Your clearance ${clearance} cannot classify a collection ${level}`);
}

/** Schema changes (create, update, delete a collection): Manager or above, or the system. */
export function assertCollectionWriter(actor: Actor): void {
  if (actor.kind === "system" || isManager(actor)) return;
  throw new ForbiddenError("This operation requires the MANAGER or ADMIN role");
}

/**
 * Record writes: Manager or above, the system, or an API key (its write scope was already checked by the
 * API-key filter, and its PUBLIC clearance bounds which collections it reaches).
 */
export function assertRecordWriter(actor: Actor): void {
  if (actor.kind === "system" || actor.kind === "apiKey" || isManager(actor)) return;
  throw new ForbiddenError("This operation requires the MANAGER or ADMIN role");
}
