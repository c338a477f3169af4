import { scheduleTimer } from "../../../engine/jobs/timers";
import type { RuntimeContext } from "./context";

/**
 * Re-creates the start-event subscriptions (message, signal) and timer-start jobs of a definition key so they point at the
 * version new instances start; a suspended key has none. Runs inside the caller's transaction.
 */
export function refreshStartEvents(ctx: RuntimeContext, tenantId: string, key: string): string[] {
  const { db } = ctx;
  const warnings: string[] = [];
  const ids = db
    .query<{ id: string }, [string, string]>("SELECT id FROM definitions WHERE tenant_id = ? AND key = ?")
    .all(tenantId, key)
    .map((r) => r.id);
  if (!ids.length) return warnings;
  const marks = ids.map(() => "?").join(",");
  db.query(
    `DELETE FROM event_subscriptions WHERE tenant_id = ? AND instance_id IS NULL AND definition_id IN (${marks})`,
  ).run(tenantId, ...ids);
  db.query(`DELETE FROM jobs WHERE tenant_id = ? AND instance_id IS NULL AND definition_id IN (${marks})`).run(
    tenantId,
    ...ids,
  );
  const suspended = db
    .query<{ suspended: number }, [string, string]>(
      "SELECT suspended FROM definition_settings WHERE tenant_id = ? AND key = ?",
    )
    .get(tenantId, key)?.suspended;
  if (suspended) return warnings;
  const def = ctx.store.startableDefinition(tenantId, key);
  if (!def) return warnings;
  const now = ctx.clock();
  const insSub = db.query(
    "INSERT INTO event_subscriptions (id, tenant_id, instance_id, execution_id, definition_id, activity_id, type, name, data, created_at) VALUES (?,?,NULL,NULL,?,?,?,?,'{}',?)",
  );
  for (const m of def.model.messageStarts)
    insSub.run(ctx.newId(), tenantId, def.id, m.elementId, "message", m.name, now);
  for (const s of def.model.signalStarts) insSub.run(ctx.newId(), tenantId, def.id, s.elementId, "signal", s.name, now);
  for (const t of def.model.timerStarts) {
    const sched = scheduleTimer(t.timer.type, t.timer.expr, now);
    if ("error" in sched) {
      warnings.push(`Process '${key}': timer start '${t.elementId}': ${sched.error}`);
      continue;
    }
    db.query(
      "INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, exception, lock_owner, lock_expires_at, data, created_at) VALUES (?,?,NULL,NULL,?,?,'timer','EXECUTABLE',?,3,NULL,NULL,NULL,?,?)",
    ).run(
      ctx.newId(),
      tenantId,
      def.id,
      t.elementId,
      sched.dueAt,
      JSON.stringify(sched.repeat ? { repeat: sched.repeat } : {}),
      now,
    );
  }
  return warnings;
}
