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
import type { WebhooksPort } from "./webhooks/port";
import type { AiGateway } from "../ai/gateway";
import type { ServiceJobs } from "../runtime/kernel/service-jobs";
import type { SecretBox } from "./secret-box";

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
  channel: Channel;
}

/** The settings operations read (a slice of the configuration, read once at start). */
export interface ServiceSettings {
  mcpEnabled: boolean;
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
  /** Durable background jobs of the services (knowledge indexing) in the runtime's jobs table. */
  serviceJobs: ServiceJobs;
  /** Single sign-on: URLs, the internal provider hosts allowed, and the box sealing client secrets. */
  sso: { publicUrl: string; returnUrl: string; allowedPrivateHosts: string[]; box: SecretBox };
  log(message: string): void;
  /** Runs work after the current call has answered (timing must not leak what it finds); the platform's idle() awaits it. */
  defer(work: () => Promise<unknown>): void;
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
