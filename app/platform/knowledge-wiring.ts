import { createAiGateway } from "../ai/gateway";
import { createServiceJobs, type ServiceJob } from "../runtime/kernel/service-jobs";
import type { Actor } from "../services/context";
import { SYSTEM_ACTOR } from "../services/attachments/system-actor";
import { KB_INDEX_JOB, KB_IVF_JOB } from "../services/knowledge-bases/access";
import { runIndexJob } from "../services/knowledge-bases/index-job";
import { runIvfJob } from "../services/knowledge-bases/ivf-job";
import type { PlatformCore } from "./platform";

/** The service acting on its own account inside a tenant, as background jobs do. */
const JOB_ACTOR: Actor = { ...SYSTEM_ACTOR, channel: "JOB" };

/** The AI gateway over the configured endpoint (read once at start). */
export const wireAi = (p: PlatformCore) =>
  createAiGateway({ settings: p.config.ai, platformSqlite: p.platformSqlite, clock: () => p.clock.now() });

/**
 * Service jobs on the engine database's kernel, with the knowledge handlers: indexing a document, and building a
 * large base's coarse quantiser (IVF).
 */
export function wireServiceJobs(p: PlatformCore) {
  const jobs = createServiceJobs(p.kernel);
  // Each job runs with a system ctx of the tenant that queued it; a tenant gone or no longer active drops its job.
  const asTenant =
    (run: typeof runIndexJob | typeof runIvfJob) =>
    async (job: ServiceJob): Promise<void> => {
      const tenant = p.tenants.get(job.tenantId);
      if (tenant?.status !== "ACTIVE") return;
      await p.withTenantCtx(tenant, JOB_ACTOR, `job-${job.id}`, (ctx) => run({ ctx, input: job }));
    };
  jobs.register(KB_INDEX_JOB, asTenant(runIndexJob));
  jobs.register(KB_IVF_JOB, asTenant(runIvfJob));
  return jobs;
}
