import type { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { startCheckpointer, type Checkpointer } from "../../db/checkpointer";
import { closeSqlite, openSqlite } from "../../db/connection";
import { runMigrations } from "../../db/migrate";
import * as platformSchema from "../../db/platform/schema";
import { engineDbPath, platformDbPath } from "../../tenants/paths";
import { createDecisionStore, type DecisionStore } from "../runtime/dmn/decision-store";
import { TenantDbCache, type TenantMigrator } from "../../tenants/tenant-db-cache";
import { TenantDirectory, type PlatformOrm, type TenantRecord } from "../../tenants/tenant-directory";
import { provisionTenant, sweepTenants, type ProvisioningDeps, type TenantSeeder } from "../../tenants/provisioning";
import type { Config } from "./config";
import { systemClock, type Clock } from "../services/clock";
import type { Actor, PlatformPorts, TenantCtx } from "../services/context";
import { createLimiters, type Limiters } from "../services/rate-limiter";
import { TokenService } from "../services/auth/tokens";
import { createMailer, type Mailer } from "../outbound/mailer";
import { dmnTemplateSeeder } from "../services/admin-dmn-templates/templates";
import type { ProcessRuntime } from "../runtime/bpmn";
import type { CaseRuntime } from "../runtime/cmmn";
import { wireCaseRuntime, wireProcessRuntime } from "./wiring";
import { setProcessAccess } from "../services/attachments/process-access";
import { runtimeProcessAccess } from "../services/instances/attachment-access";
import { setCmsQuery } from "../services/datasources/cms-registry";
import { cmsDataSourceQuery } from "../services/cms/datasource-query";
import { processTemplateSeeder } from "./process-template-seeder";
import { wireWebhooks, type WebhooksWiring } from "./webhooks";
import { createLogger, messageLog, type Logger } from "./observability/logger";
import { createMetrics, type Metrics } from "./observability/metrics";
import { scriptPool } from "../runtime/scripting/js-sandbox";
import { readinessOf, type Phase, type Readiness } from "./observability/readiness";
import { checkpointAll } from "./observability/checkpoint";
import { assemblePorts } from "./ports";
import { createMailPoller, type MailPoller } from "../services/mail-inboxes/poller";
import { MAIL_ACTOR } from "../services/mail-rules/deliver";
import { createTenantStorage } from "./tenant-storage";
import { createCleanupLoop, type CleanupLoop } from "./history-cleanup";

export interface PlatformOptions {
  config: Config;
  clock?: Clock;
  log?: (message: string) => void;
  /** The structured logger; by default JSON lines on stdout, silent when `log` is overridden (tests capture that). */
  logger?: Logger;
  mailer?: Mailer;
  tenantMigrator?: TenantMigrator;
}

/** The long-lived parts of the service, built once at start and shared by every request. */
export interface Platform {
  config: Config;
  clock: Clock;
  log: (message: string) => void;
  logger: Logger;
  metrics: Metrics;
  /** starting until `start`, draining from `drain` (SIGTERM): /health/ready answers 503 outside `ready`. */
  readiness(): Readiness;
  drain(): void;
  platformSqlite: Database;
  platformDb: PlatformOrm;
  engineSqlite: Database;
  /** The deployed versions of DMN decisions (engine database). */
  decisionStore: DecisionStore;
  tenantDbs: TenantDbCache;
  tenants: TenantDirectory;
  tokens: TokenService;
  mailer: Mailer;
  limiters: Limiters;
  /** The BPMN runtime over the engine database (definitions, instances, tasks, jobs, history). */
  processRuntime: ProcessRuntime;
  /** The CMMN runtime over the same engine database, sharing tasks and definitions. */
  caseRuntime: CaseRuntime;
  /** The webhook outbox, port and dispatcher (started and stopped with the platform). */
  webhooks: WebhooksWiring;
  /** Removes ended instances past their history time-to-live in the off-peak window (docs/operations.md). */
  historyCleanup: CleanupLoop;
  /** Reads the tenants' mail inboxes for mail rules (started with the other background work). */
  mailPoller: MailPoller;
  /** Steps run when a tenant is provisioned; subsystems register theirs at start. */
  seeders: TenantSeeder[];
  /** Starts provisioning in the background and answers at once. */
  provisionInBackground(tenantId: string): void;
  sweep(): Promise<{ recovered: string[] }>;
  /** The ports operations are given (see app/services/context.ts); the HTTP layer builds each call's ctx from them. */
  ports: PlatformPorts;
  /** The one place a tenant operation's full ctx is assembled (requests, tests, later MCP tools and jobs). */
  tenantCtx(tenant: TenantRecord, actor: Actor, requestId: string): TenantCtx;
  /**
   * Runs one command (a request, a job, a mail run) with a tenant ctx whose database handle is leased: it stays open
   * until `run` settles, however many other tenants are opened meanwhile (MAX_OPEN_TENANT_DBS bounds the others).
   */
  withTenantCtx<T>(
    tenant: TenantRecord,
    actor: Actor,
    requestId: string,
    run: (ctx: TenantCtx) => T | Promise<T>,
  ): Promise<T>;
  /** Resolves when background work started so far has settled (tests use it instead of sleeping). */
  idle(): Promise<void>;
  /** Starts timers (tenant sweep); `stop` ends them. */
  start(): void;
  stop(): Promise<void>;
}

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
  const engineSqlite = openSqlite(engineDbPath(config.dataDir), { kind: "engine", synchronous: config.synchronous });
  runMigrations(engineSqlite, "engine");
  const platformDb = drizzle(platformSqlite, { schema: platformSchema });
  const tenantDbs = new TenantDbCache({
    dataDir: config.dataDir,
    maxOpen: config.maxOpenTenantDbs,
    synchronous: config.synchronous,
    migrator: opts.tenantMigrator,
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
    checkpointAll(everyDb(), mode, (db, s) => platform.metrics.recordCheckpoint(db, s));

  const platform = {
    config,
    clock,
    log,
    logger,
    readiness: () => readinessOf(phase, sharedDbs, platform.processRuntime.jobExecutorActive()),
    drain() {
      phase = "draining";
    },
    platformSqlite,
    platformDb,
    engineSqlite,
    decisionStore: createDecisionStore(engineSqlite),
    tenantDbs,
    tenants,
    tokens: new TokenService(config.jwtSecret, () => clock.now()),
    mailer: opts.mailer ?? createMailer(config.smtpUrl, config.mailFrom, log),
    limiters: createLimiters(clock),
    seeders,
    provisionInBackground(tenantId) {
      track(new Promise((r) => setTimeout(r, 0)).then(() => provisionTenant(provisioning, tenantId)));
    },
    sweep: () => sweepTenants(provisioning),
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
        (r) => platform.metrics.recordCheckpoint(r.db, r.seconds),
        (message) => log(`[checkpointer] ${message}`),
      );
      platform.ports.serviceJobs.recover();
      tenantStorage.resume();
      platform.processRuntime.startJobExecutor({ intervalMs: 500 });
      platform.caseRuntime.startTimerLoop({
        intervalMs: 1000,
        onError: (e) => log(`[cases] timer failed: ${e instanceof Error ? e.message : e}`),
      });
      platform.webhooks.dispatcher.start();
      platform.mailPoller.start({ tickMs: 5000 });
      platform.historyCleanup.start({ tickMs: 60_000 });
      phase = "ready";
    },
    async stop() {
      phase = "draining";
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      tenantStorage.halt();
      await platform.webhooks.dispatcher.stop();
      await platform.mailPoller.stop();
      await platform.historyCleanup.stop();
      await platform.processRuntime.stop();
      await platform.caseRuntime.stop();
      await platform.idle();
      await checkpointer?.stop();
      checkpointer = null;
      checkpoint("TRUNCATE");
      tenantDbs.closeAll();
      platformSqlite.close();
      await closeSqlite(engineSqlite);
    },
  } as Omit<
    Platform,
    | "processRuntime"
    | "caseRuntime"
    | "webhooks"
    | "ports"
    | "tenantCtx"
    | "withTenantCtx"
    | "metrics"
    | "mailPoller"
    | "historyCleanup"
  > as Platform;
  platform.processRuntime = wireProcessRuntime(platform);
  platform.metrics = createMetrics({
    dataDir: config.dataDir,
    jobFigures: () => platform.processRuntime.jobFigures(),
    openTenantDbs: () => tenantDbs.openCount(),
    commandRecomputations: () => platform.processRuntime.commandRecomputations(),
    historyBacklog: () => platform.processRuntime.historyCleanup.backlog(),
    scriptPool: () => scriptPool(config.scriptWorkers).stats(),
  });
  platform.historyCleanup = createCleanupLoop({
    cleanup: platform.processRuntime.historyCleanup,
    settings: config.historyCleanup,
    now: () => clock.now(),
    onBatch: (b, seconds) => platform.metrics.recordCleanup(b, seconds),
    log,
  });
  platform.caseRuntime = wireCaseRuntime(platform);
  platform.webhooks = wireWebhooks({ config, clock, engineSqlite, platformDb, log });
  const tenantStorage = createTenantStorage(platform, track);
  platform.ports = assemblePorts(platform, tenantStorage, track);
  platform.ports.revocations.load();
  const ctxOf = (tenant: TenantRecord, actor: Actor, requestId: string, db: TenantCtx["db"]): TenantCtx => ({
    ...platform.ports,
    db,
    tenant,
    actor,
    channel: actor.channel,
    requestId,
    clock,
  });
  platform.tenantCtx = (tenant, actor, requestId) => ctxOf(tenant, actor, requestId, tenantDbs.get(tenant.id));
  platform.withTenantCtx = async (tenant, actor, requestId, run) => {
    const db = tenantDbs.acquire(tenant.id);
    try {
      return await run(ctxOf(tenant, actor, requestId, db));
    } finally {
      tenantDbs.release(db);
    }
  };
  platform.mailPoller = createMailPoller({
    tenants: () => tenants.all().filter((t) => t.status === "ACTIVE" && !tenantDbs.degradedReason(t.id)),
    withCtx: (tenant, run) => platform.withTenantCtx(tenant, MAIL_ACTOR, `mail-${crypto.randomUUID()}`, run),
    clock,
    log,
  });
  seeders.push(dmnTemplateSeeder(platform), processTemplateSeeder(platform));
  // Both adapters read everything from the request's ctx, so one registration serves every platform in the process.
  setProcessAccess(runtimeProcessAccess);
  setCmsQuery(cmsDataSourceQuery);
  return platform;
}
