import { isNotNull } from "drizzle-orm";
import { agents } from "../../../db/platform/schema";
import { canRead, clearanceOf, type Confidentiality } from "../cms/clearance";
import type { TenantCtx } from "../context";
import { ForbiddenError } from "../errors";

/**
 * Nobody grants an agent more CMS clearance than they hold themselves (as nobody classifies a collection above their
 * own level, confidentiality rule 3): the agent reads records on behalf of whoever set it up.
 */
export function assertCanGrantClearance(ctx: { actor: TenantCtx["actor"] }, level: Confidentiality): void {
  const own = clearanceOf(ctx.actor);
  if (!canRead(level, own))
    throw new ForbiddenError(`Your clearance ${own} cannot give an agent the clearance ${level}`);
}

/**
 * Platform migration 0010 capped existing agents to their creator's clearance and kept the level each had: the first
 * start after it reports each capped agent in the log once, then forgets the old level.
 */
export function reportCappedAgents(platformDb: TenantCtx<"platformDb">["platformDb"], log: (m: string) => void) {
  const capped = platformDb.select().from(agents).where(isNotNull(agents.clearanceCappedFrom)).all();
  for (const a of capped)
    log(
      `[agents] agent ${a.key} (${a.scope}): CMS clearance capped from ${a.clearanceCappedFrom} to ${a.cmsClearance}, ` +
        "its creator's level (an agent never holds more than whoever configured it)",
    );
  if (capped.length) platformDb.update(agents).set({ clearanceCappedFrom: null }).run();
}
