import type { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { startCheckpointer, type Checkpointer } from "../../db/checkpointer";
import { closeSqlite, openSqlite } from "../../db/connection";
import { runMigrations } from "../../db/migrate";
import * as platformSchema from "../../db/platform/schema";
import { engineDbPath, platformDbPath } from "../../tenants/paths";
import { createDecisionStore } from "../runtime/dmn/decision-store";
import { createKernel } from "../runtime/kernel/kernel";
import { TenantDbCache } from "../../tenants/tenant-db-cache";
import { TenantDirectory } from "../../tenants/tenant-directory";
import { provisionTenant, sweepTenants, type ProvisioningDeps, type TenantSeeder } from "../../tenants/provisioning";
import { systemClock } from "../services/clock";
import type { PlatformPorts } from "../services/context";
import { createLimiters } from "../services/rate-limiter";
import { TokenService } from "../services/auth/tokens";
import { createMailer } from "../outbound/mailer";
import { dmnTemplateSeeder } from "../services/admin-dmn-templates/templates";
import type { ProcessRuntime } from "../runtime/bpmn";
import type { CaseRuntime } from "../runtime/cmmn";
import { wireCaseRuntime, wireProcessRuntime } from "./wiring";
import { processTemplateSeeder } from "./process-template-seeder";
import { wireWebhooks } from "./webhooks";
import { createLogger, messageLog } from "./observability/logger";
import { createMetrics } from "./observability/metrics";
import { scriptPool } from "../runtime/scripting/js-sandbox";
import { readinessOf, type Phase } from "./observability/readiness";
import { checkpointAll } from "./observability/checkpoint";
import { assemblePorts } from "./ports";
import { runtimeProcessAccess } from "../services/instances/attachment-access";
import { cmsDataSourceQuery } from "../services/cms/datasource-query";
import { createMailPoller } from "../services/mail-inboxes/poller";
import { MAIL_ACTOR } from "../services/mail-rules/deliver";
import { createTenantStorage } from "./tenant-storage";
import { createCleanupLoop } from "./history-cleanup";
import { reportCappedAgents } from "../services/agents/clearance-cap";
import { sealEveryTenant, tenantSecretsOf } from "./tenant-secrets";

import type { Platform, PlatformCore, PlatformOptions } from "./types";
export type { Platform, PlatformCore, PlatformOptions } from "./types";

export function createPlatform(opts: PlatformOptions): Platform {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const logger = opts.logger ?? createLogger({ level: opts.log ? "silent" : config.logLevel });
  const log = opts.log ?? messageLog(logger);
  const platformSqlite = openSqlite(platformDbPath(config.dataDir), {
    kind: "platform",
    synchronous: config.synchronous,
  });
  runMigrations(platformSqlite, "platform");
  const engineSqlite = openSqlite(engineDbPath(config.dataDir), {
    kind: "engine",
    synchronous: config.synchronous,
    cacheKib: config.sqliteCache.engineKib,
  });
  runMigrations(engineSqlite, "engine");
  const platformDb = drizzle(platformSqlite, { schema: platformSchema });
  reportCappedAgents(platformDb, log);
  const tenantSecrets = tenantSecretsOf(config.jwtSecret, opts.tenantMigrator, log);
  // The engine database's one kernel: both runtimes, the decision store, the webhook outbox, the service jobs and the
  // tenant purge are built on it below, with the platform's clock.
  const kernel = createKernel({
    db: engineSqlite,
    clock: () => clock.now(),
    logger: {
      info: () => {},
      warn: (msg) => log(`[engine] ${msg}`),
      error: (msg, data) => log(`[engine] ${msg} ${data ? JSON.stringify(data) : ""}`),
    },
  });
  const tenantDbs = new TenantDbCache({
    dataDir: config.dataDir,
    maxOpen: config.maxOpenTenantDbs,
    synchronous: config.synchronous,
    cacheKib: config.sqliteCache.tenantKib,
    migrator: tenantSecrets.migrator,
    secrets: tenantSecrets.secrets,
    onDegraded: (tenantId, error) => log(`[tenants] tenant ${tenantId} degraded: schema migration failed: ${error}`),
  });
  const tenants = new TenantDirectory(platformDb, () => new Date(clock.now()));
  const pending = new Set<Promise<unknown>>();
  const seeders: TenantSeeder[] = [];
  const provisioning: ProvisioningDeps = { cache: tenantDbs, directory: tenants, seeders, log };
  const track = (p: Promise<unknown>) => {
    pending.add(p);
    p.finally(() => pending.delete(p));
  };
  const provisionInBackground = (tenantId: string) =>
    track(new Promise((r) => setTimeout(r, 0)).then(() => provisionTenant(provisioning, tenantId)));

  // The one tenant ctx: its handle leased for the whole of `run`. It reads the ports, assembled further down; nothing
  // calls it before the assembly ends.
  const withTenantCtx: Platform["withTenantCtx"] = async (tenant, actor, requestId, run) => {
    const db = tenantDbs.acquire(tenant.id);
    try {
      return await run({ ...ports, db, tenant, actor, channel: actor.channel, requestId, clock });
    } finally {
      tenantDbs.release(db);
    }
  };
  // What the wiring reads while the platform is assembled: everything built before the runtimes.
  const core: PlatformCore = {
    config,
    clock,
    log,
    platformSqlite,
    platformDb,
    engineSqlite,
    kernel,
    decisionStore: createDecisionStore(kernel),
    tenantDbs,
    tenants,
    tokens: new TokenService(config.jwtSecret, () => clock.now()),
    mailer: opts.mailer ?? createMailer(config.smtpUrl, config.mailFrom, log),
    limiters: createLimiters(clock, config.passwordHashing),
    provisionInBackground,
    withTenantCtx,
  };
  // The runtimes, on the one kernel: a process that ends moves its waiting case on, a case's process task starts one.
  const processRuntime: ProcessRuntime = wireProcessRuntime(core, () => caseRuntime);
  const caseRuntime: CaseRuntime = wireCaseRuntime(core, processRuntime);
  const webhooks = wireWebhooks({ config, clock, kernel, platformDb, log });
  const tenantStorage = createTenantStorage(core, () => ports, track);
  const ports: PlatformPorts = assemblePorts({ ...core, processRuntime, caseRuntime, webhooks }, tenantStorage, track, {
    processAccess: opts.processAccess ?? runtimeProcessAccess,
    cmsQuery: opts.cmsQuery ?? cmsDataSourceQuery,
  });
  ports.revocations.load();
  const metrics = createMetrics({
    dataDir: config.dataDir,
    jobFigures: () => processRuntime.jobFigures(),
    openTenantDbs: () => tenantDbs.openCount(),
    commandRecomputations: () => processRuntime.commandRecomputations(),
    historyBacklog: () => processRuntime.historyCleanup.backlog(),
    scriptPool: () => scriptPool(config.scriptWorkers).stats(),
  });
  const historyCleanup = createCleanupLoop({
    cleanup: processRuntime.historyCleanup,
    settings: config.historyCleanup,
    now: () => clock.now(),
    onBatch: (b, seconds) => metrics.recordCleanup(b, seconds),
    log,
  });
  const mailPoller = createMailPoller({
    tenants: () => tenants.all().filter((t) => t.status === "ACTIVE" && !tenantDbs.degradedReason(t.id)),
    withCtx: (tenant, run) => withTenantCtx(tenant, MAIL_ACTOR, `mail-${crypto.randomUUID()}`, run),
    clock,
    log,
  });
  seeders.push(dmnTemplateSeeder(core), processTemplateSeeder({ platformDb, clock, ports }));

  let sweepTimer: ReturnType<typeof setInterval> | null = null;
  let checkpointer: Checkpointer | null = null;
  let phase: Phase = "starting";
  const sharedDbs = { platformDb: platformSqlite, engineDb: engineSqlite };
  const everyDb = (): [string, Database][] => [
    ["platform", platformSqlite],
    ["engine", engineSqlite],
    ...tenantDbs.openHandles().map((t): [string, Database] => ["tenant", t.sqlite]),
  ];
  const checkpoint = (mode: "PASSIVE" | "TRUNCATE") =>
    checkpointAll(everyDb(), mode, (db, s) => metrics.recordCheckpoint(db, s));

  const platform: Platform = {
    ...core,
    logger,
    metrics,
    readiness: () => readinessOf(phase, sharedDbs, processRuntime.jobExecutorActive()),
    drain() {
      phase = "draining";
    },
    processRuntime,
    caseRuntime,
    webhooks,
    historyCleanup,
    mailPoller,
    seeders,
    sweep: () => sweepTenants(provisioning),
    ports,
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
    start() {
      sweepTimer ??= setInterval(() => {
        track(sweepTenants(provisioning));
        tenantStorage.resume();
      }, 60_000);
      // The engine and platform WALs are checkpointed on a worker thread; their connections never checkpoint.
      checkpointer ??= startCheckpointer(
        {
          dbs: [
            { name: "platform", path: platformDbPath(config.dataDir) },
            // The engine's group commits pause for the catch-up that lets its WAL start over under load.
            { name: "engine", path: engineDbPath(config.dataDir), connection: engineSqlite },
          ],
        },
        (r) => metrics.recordCheckpoint(r.db, r.seconds),
        (message) => log(`[checkpointer] ${message}`),
      );
      ports.serviceJobs.recover();
      tenantStorage.resume();
      processRuntime.startJobExecutor({ intervalMs: 500 });
      caseRuntime.startTimerLoop({
        intervalMs: 1000,
        onError: (e) => log(`[cases] timer failed: ${e instanceof Error ? e.message : e}`),
      });
      webhooks.dispatcher.start();
      mailPoller.start({ tickMs: 5000 });
      historyCleanup.start({ tickMs: 60_000 });
      track(sealEveryTenant(platformSqlite, tenantDbs, () => phase === "ready" || phase === "starting"));
      phase = "ready";
    },
    async stop() {
      phase = "draining";
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      tenantStorage.halt();
      await webhooks.dispatcher.stop();
      await mailPoller.stop();
      await historyCleanup.stop();
      await processRuntime.stop();
      await caseRuntime.stop();
      await platform.idle();
      await checkpointer?.stop();
      checkpointer = null;
      checkpoint("TRUNCATE");
      tenantDbs.closeAll();
      platformSqlite.close();
      await closeSqlite(engineSqlite);
    },
  };
  return platform;
}
