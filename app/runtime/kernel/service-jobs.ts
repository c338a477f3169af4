import type { Kernel } from "./kernel";
import { SERVICE_JOB_PREFIX } from "./job-executor";
import type { JobRow } from "./rows";

/** A service job as its handler sees it: the tenant it runs for, its data, and the retries left (1 = the last try). */
export interface ServiceJob {
  id: string;
  tenantId: string;
  kind: string;
  data: Record<string, unknown>;
  retriesLeft: number;
}
export type ServiceJobHandler = (job: ServiceJob) => Promise<void>;

/**
 * Durable background work of the services (knowledge indexing, ...) as rows of the runtime's jobs table, run by the
 * kernel's one executor: same claim locks, retries and dead-letter as process jobs, exponential backoff, and the row
 * survives kill -9 (a restarted process releases the locks the dead one held and runs the job again).
 */
export function createServiceJobs(kernel: Kernel) {
  const { db } = kernel;
  const kinds = new Map<string, ServiceJobHandler>();
  const q = {
    insert: db.query(
      `INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, data, created_at)
       VALUES (?, ?, NULL, NULL, '', ?, ?, 'EXECUTABLE', ?, ?, ?, ?)`,
    ),
    fresh: db.query<JobRow, [string]>("SELECT * FROM jobs WHERE id = ?"),
    done: db.query("DELETE FROM jobs WHERE id = ?"),
    release: db.query(
      `UPDATE jobs SET lock_owner = NULL, lock_expires_at = NULL WHERE kind LIKE '${SERVICE_JOB_PREFIX}%' AND lock_owner IS NOT NULL AND lock_owner <> ?`,
    ),
    pending: db.query<{ n: number }, [string, string]>(
      "SELECT COUNT(*) n FROM jobs WHERE tenant_id = ? AND kind = ? AND state = 'EXECUTABLE'",
    ),
    pendingFor: db.query<{ n: number }, [string, string, string, string]>(
      "SELECT COUNT(*) n FROM jobs WHERE tenant_id = ? AND kind = ? AND state = 'EXECUTABLE' AND json_extract(data, '$.' || ?) = ?",
    ),
  };
  kernel.jobs.register("SERVICE", async (row) => {
    const handler = kinds.get(row.kind);
    const now = q.fresh.get(row.id);
    if (!handler || now?.state !== "EXECUTABLE") return false;
    const data = JSON.parse(row.data) as Record<string, unknown>;
    await handler({ id: row.id, tenantId: row.tenant_id, kind: row.kind, data, retriesLeft: row.retries });
    await kernel.writable();
    q.done.run(row.id);
    return true;
  });
  return {
    /** The handler of a kind (named `svc:...`); registering again replaces it. */
    register(kind: string, handler: ServiceJobHandler) {
      if (!kind.startsWith(SERVICE_JOB_PREFIX)) throw new Error(`service job kinds start with ${SERVICE_JOB_PREFIX}`);
      kinds.set(kind, handler);
    },
    /**
     * Queues a job, right before or after the write of what it works on (a job that finds nothing does nothing). Waits
     * first while the checkpointer holds the engine's writes, like every writer of a request; `unlessPending` (one job
     * per subject) is checked after that wait, and nothing is queued (null) when such a job is queued or running.
     * `alongside` is that write when it must follow the job's row: it runs right after the row, in the same turn of
     * the event loop (and not at all when `unlessPending` queues nothing). A write after the returned promise would come a few microtasks later, and an executor that
     * waited for the same release could claim the job in between and find nothing.
     */
    async enqueue(
      tenantId: string,
      kind: string,
      data: Record<string, unknown>,
      opts: {
        retries?: number;
        backoffMs?: number;
        unlessPending?: { field: string; value: string };
        alongside?: () => void;
      } = {},
    ): Promise<string | null> {
      await kernel.writable();
      const once = opts.unlessPending;
      if (once && (q.pendingFor.get(tenantId, kind, once.field, once.value)?.n ?? 0) > 0) return null;
      const id = kernel.newId();
      const retries = opts.retries ?? 3;
      const payload = { ...data, maxRetries: retries, backoffMs: opts.backoffMs ?? 5000 };
      const now = kernel.clock();
      q.insert.run(id, tenantId, kind, kind, now, retries, JSON.stringify(payload), now);
      opts.alongside?.();
      return id;
    },
    /** Runs the service jobs due now; returns how many finished. */
    runDue: (limit = 100) => kernel.jobs.runDue("SERVICE", limit),
    /** Queued jobs of a kind for a tenant (tests and progress views). */
    pendingCount: (tenantId: string, kind: string) => q.pending.get(tenantId, kind)?.n ?? 0,
    /**
     * Releases the claim locks of executors that are gone. The service runs as one process, so at start every lock
     * not held by this process's executor belongs to a process that died (kill -9) mid-job.
     */
    recover: () => q.release.run(kernel.jobs.owner).changes,
  };
}
export type ServiceJobs = ReturnType<typeof createServiceJobs>;
