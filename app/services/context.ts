import type { ProcessAccess } from "./attachments/process-access";
import type { CmsQuery } from "./datasources/cms-registry";
import type { TenantDb } from "../../tenants/tenant-db-cache";
import type { PlatformOrm, TenantDirectory, TenantRecord } from "../../tenants/tenant-directory";
import type { CaseRuntime } from "../runtime/cmmn";
import type { DecisionStore } from "../runtime/dmn/decision-store";
import type { ProcessRuntime } from "../runtime/bpmn";
import type { TokenService } from "./auth/tokens";
import type { AccessRevocations } from "./auth/revocations";
import type { Clock } from "./clock";
import type { Mailer } from "../outbound/mailer";
import type { Limiters } from "./rate-limiter";
import type { Admission } from "./admission";
import type { WebhooksPort } from "./webhooks/port";
import type { AiGateway } from "../ai/gateway";
import type { ServiceJobs } from "../runtime/kernel/service-jobs";
import type { SecretBox } from "./secret-box";
import type { ConfirmationSigner } from "./mcp-run/confirmation";
import type { McpRemoteTools } from "./admin-mcp-servers/remote";

export type TenantRole = "ADMIN" | "MODELER" | "MANAGER" | "USER";
export const TENANT_ROLES: readonly TenantRole[] = ["ADMIN", "MODELER", "MANAGER", "USER"];

/** How an operation reached the service; recorded in history. SYSTEM is the service acting on its own account. */
export type Channel = "REST" | "API_KEY" | "MCP" | "AGENT" | "ROBOT" | "MAIL" | "JOB" | "SYSTEM";

/** Who is acting: a user (token or Basic), an API key, an agent, a robot, or the system itself. */
export interface Actor {
  kind: "user" | "apiKey" | "agent" | "robot" | "system";
  userId: string | null;
  email: string | null;
  isSuperAdmin: boolean;
  /** Roles held in the selected tenant; empty for API keys. */
  tenantRoles: TenantRole[];
  apiKeyId: string | null;
  /** The robot runner whose token authenticated the call (actor kind "robot"). */
  runnerId?: string;
  channel: Channel;
}

/** The settings operations read (a slice of the configuration, read once at start). */
export interface ServiceSettings {
  mcpEnabled: boolean;
  /** Origins a browser may call /a/mcp from (MCP_ALLOWED_ORIGINS); localhost origins always pass. */
  mcpAllowedOrigins: string[];
  maxUploadBytes: number;
  /** Root of the data folder; attachments keep their files below it, per tenant. */
  dataDir: string;
  /** Interval of the keep-alive comments on server-sent event streams (proxies cut idle streams at about 60 s). */
  sseHeartbeatMs: number;
}

/**
 * The ports of the platform, given to operations one by one: each operation's ctx type picks the ports it uses
 * (`TenantCtx<"db" | "processRuntime">`), so a caller (a route, an MCP tool, an agent, a job) builds only those.
 */
export interface PlatformPorts {
  /** Platform tables: users, memberships, tenants, sessions, notifications, API keys, templates. */
  platformDb: PlatformOrm;
  tenants: TenantDirectory;
  tokens: TokenService;
  /** Deactivated users, removed memberships, changed roles: consulted on every authenticated request. */
  revocations: AccessRevocations;
  mailer: Mailer;
  limiters: Limiters;
  /**
   * Fair share of expensive work per tenant (commands that run scripts or agents, DMN evaluation, uploads, deploys
   * and validation): a tenant past its running and waiting bound gets 429 with Retry-After, others are not slowed.
   */
  admission: Admission;
  /** The BPMN runtime (definitions, instances, tasks, jobs, history). */
  processRuntime: ProcessRuntime;
  /** The CMMN runtime over the same engine database. */
  caseRuntime: CaseRuntime;
  /** The deployed versions of the tenants' DMN decisions (engine database). */
  decisionStore: DecisionStore;
  /** Starts provisioning a tenant in the background. */
  provisionInBackground(tenantId: string): void;
  /** Opens (or reuses) a tenant's database; platform administration reads tenants it is not acting in. */
  tenantDb(tenantId: string): TenantDb;
  /** Whether a tenant's database failed its migrations (platform administration shows it). */
  isDegraded(tenantId: string): string | null;
  settings: ServiceSettings;
  /** Webhook signing secrets, the subscription cache and the outbound policy of webhook targets. */
  webhooks: WebhooksPort;
  /** The configured AI models (or none), with usage accounting and quotas. */
  ai: AiGateway;
  /** A tenant's storage as a whole: end of life (deactivate, drop) and export. */
  tenantStorage: TenantStorage;
  /** Durable background jobs of the services (knowledge indexing) in the runtime's jobs table. */
  serviceJobs: ServiceJobs;
  /** Single sign-on: URLs, the internal provider hosts allowed, and the box sealing client secrets. */
  sso: { publicUrl: string; returnUrl: string; allowedPrivateHosts: string[]; box: SecretBox };
  /** Registered remote MCP servers as agents' tool sources: the sealing box, discovery cache, calls under their limits. */
  mcpServers: McpRemoteTools;
  /** Signs and checks the confirmationToken of MCP's task preview and completion. */
  mcpConfirmations: ConfirmationSigner;
  log(message: string): void;
  /** What the attachment rules ask of the process side (instances, policies, process roles). */
  processAccess: ProcessAccess;
  /** Runs a CMS data source's query as the caller (the CMS service's query, with its clearance rules). */
  cmsQuery: CmsQuery;
  /** Runs work after the current call has answered (timing must not leak what it finds); the platform's idle() awaits it. */
  defer(work: () => Promise<unknown>): void;
}

/** A tenant's storage as a whole, for its end of life and its export (app/platform/tenant-storage.ts). */
export interface TenantStorage {
  /** Rows deleted per batch by a drop (TENANT_DROP_BATCH_SIZE). */
  dropBatchSize: number;
  /** Deletes one batch of the tenant's rows in the engine database; 0 when none is left. */
  purgeEngineBatch(tenantId: string, limit: number): Promise<number>;
  /** Closes the tenant's open database handle (deactivation, drop). */
  closeHandle(tenantId: string): void;
  /** Closes the handle and removes the tenant's folder: its database file and its file store. Idempotent. */
  removeFiles(tenantId: string): void;
  /** Runs the drop job of the tenant in the background, unless it is running already. */
  startDrop(tenantId: string): void;
  /** An online snapshot of the tenant's database and files as a tar stream (a manifest and tenant.json first). */
  exportArchive(tenant: TenantRecord, exportedAt: string): ReadableStream<Uint8Array>;
}

/** Ports of an operation acting inside one tenant: the platform's plus the tenant's own database. */
export interface TenantPorts extends PlatformPorts {
  db: TenantDb;
}

/** What every operation knows about its call. */
export interface CallInfo {
  actor: Actor;
  channel: Channel;
  requestId: string;
  clock: Clock;
}

/** An operation inside a tenant: the tenant fixed by authentication (isolation is structural) plus the named ports. */
export type TenantCtx<P extends keyof TenantPorts = keyof TenantPorts> = CallInfo & { tenant: TenantRecord } & Pick<
    TenantPorts,
    P
  >;

/**
 * The one way to a tenant operation's ctx (requests, MCP, jobs, agents, mail, webhooks, tests): runs `run` with a ctx
 * whose database handle is leased, so it stays open until `run` settles however many other tenants are opened
 * meanwhile (MAX_OPEN_TENANT_DBS bounds the others). There is no unleased ctx: any operation may await.
 */
export type WithTenantCtx = <T>(
  tenant: TenantRecord,
  actor: Actor,
  requestId: string,
  run: (ctx: TenantCtx) => T | Promise<T>,
) => Promise<T>;

/** An operation outside any tenant (sessions, platform administration): the named platform ports. */
export type PlatformCtx<P extends keyof PlatformPorts = keyof PlatformPorts> = Omit<CallInfo, "actor"> & {
  actor: Actor | null;
} & Pick<PlatformPorts, P>;

/** Every operation's shape: one argument with the narrow ctx and the parsed input. */
export type Operation<C, I, O> = (call: { ctx: C; input: I }) => O;

export const isAdmin = (a: Actor) => a.isSuperAdmin || a.tenantRoles.includes("ADMIN");
export const isManager = (a: Actor) => isAdmin(a) || a.tenantRoles.includes("MANAGER");
export const isModeler = (a: Actor) => isAdmin(a) || a.tenantRoles.includes("MODELER");
/** Roles that see the whole tenant's instances and tasks. */
export const seesWholeTenant = isManager;
