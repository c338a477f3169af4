import { readSnapshot } from "../../../db/read-snapshot";
import type { RuntimeContext } from "./context";

/**
 * The variables visible at one execution of an instance: the instance's, overlaid by those of every scope down to the
 * execution, the nearest winning (the engine's lookup). A robot step reads its own local inputs this way, as in
 * Camunda (the arguments an agent gave the activity it called as a tool among them).
 */
export function createVariablesAt(ctx: RuntimeContext) {
  const q = ctx.db.query<{ name: string; value: string }, [string, string, string]>(
    `WITH RECURSIVE chain(id, depth) AS (
       SELECT ?1, 0
       UNION ALL SELECT e.parent_id, c.depth + 1 FROM executions e JOIN chain c ON e.id = c.id
       WHERE e.instance_id = ?2 AND e.parent_id IS NOT NULL AND c.depth < 1000)
     SELECT v.name, v.value FROM variables v JOIN chain c ON v.execution_id = c.id
     WHERE v.instance_id = ?2 AND v.tenant_id = ?3 AND v.execution_id <> ?2 ORDER BY c.depth DESC`,
  );
  const root = ctx.db.query<{ name: string; value: string }, [string, string]>(
    "SELECT name, value FROM variables WHERE instance_id = ?1 AND execution_id = ?1 AND +tenant_id = ?2",
  );
  return (tenantId: string, instanceId: string, executionId: string): Record<string, unknown> =>
    readSnapshot(ctx.db, () => {
      const out: Record<string, unknown> = {};
      for (const v of root.all(instanceId, tenantId)) out[v.name] = JSON.parse(v.value);
      for (const v of q.all(executionId, instanceId, tenantId)) out[v.name] = JSON.parse(v.value);
      return out;
    });
}
