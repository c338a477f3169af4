import type { Database } from "bun:sqlite";
import type { TenantDbCache, TenantMigrator } from "../../tenants/tenant-db-cache";
import type { PlatformOrm, TenantDirectory } from "../../tenants/tenant-directory";
import type { TenantSeeder } from "../../tenants/provisioning";
import type { ProcessRuntime } from "../runtime/bpmn";
import type { CaseRuntime } from "../runtime/cmmn";
import type { DecisionStore } from "../runtime/dmn/decision-store";
import type { Kernel } from "../runtime/kernel/kernel";
import type { Mailer } from "../outbound/mailer";
import type { ProcessAccess } from "../services/attachments/process-access";
import type { TokenService } from "../services/auth/tokens";
import type { Clock } from "../services/clock";
import type { PlatformPorts, WithTenantCtx } from "../services/context";
import type { CmsQuery } from "../services/datasources/cms-registry";
import type { MailPoller } from "../services/mail-inboxes/poller";
import type { Limiters } from "../services/rate-limiter";
import type { Config } from "./config";
import type { CleanupLoop } from "./history-cleanup";
import type { Logger } from "./observability/logger";
import type { Metrics } from "./observability/metrics";
import type { Readiness } from "./observability/readiness";
import type { WebhooksWiring } from "./webhooks";

// The shapes of the platform (createPlatform in platform.ts builds them): its options, the whole, and the core the
// wiring reads while it is assembled.

export interface PlatformOptions {
  config: Config;
  clock?: Clock;
  log?: (message: string) => void;
  /** The structured logger; by default JSON lines on stdout, silent when `log` is overridden (tests capture that). */
  logger?: Logger;
  mailer?: Mailer;
  tenantMigrator?: TenantMigrator;
  /** The process side the attachment rules ask (default: the runtime's; tests give a table of their own). */
  processAccess?: ProcessAccess;
  /** The CMS query of data sources (default: the CMS service's). */
  cmsQuery?: CmsQuery;
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
  /** The engine database's kernel, shared by the process and the case runtime (app/runtime/kernel/kernel.ts). */
  kernel: Kernel;
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
  /** The one (leased) tenant ctx: app/services/context.ts, WithTenantCtx. */
  withTenantCtx: WithTenantCtx;
  /** Resolves when background work started so far has settled (tests use it instead of sleeping). */
  idle(): Promise<void>;
  /** Starts timers (tenant sweep); `stop` ends them. */
  start(): void;
  stop(): Promise<void>;
}

/**
 * The parts built before the runtimes: what the wiring (app/platform/wiring.ts, agent-wiring.ts, knowledge-wiring.ts,
 * tenant-storage.ts, ports.ts) reads while the platform is assembled, in one pass and in the order of createPlatform.
 */
export type PlatformCore = Pick<
  Platform,
  | "config"
  | "clock"
  | "log"
  | "platformSqlite"
  | "platformDb"
  | "engineSqlite"
  | "kernel"
  | "decisionStore"
  | "tenantDbs"
  | "tenants"
  | "tokens"
  | "mailer"
  | "limiters"
  | "provisionInBackground"
  | "withTenantCtx"
>;
