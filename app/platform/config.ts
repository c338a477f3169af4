import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import type { SyncMode } from "../../db/connection";
import { parseTrustProxy, type TrustProxy } from "../http/middleware/client-ip";
import { cleanupSettingsOf, type CleanupSettings } from "./history-cleanup";
import { DEFAULT_SCRIPT_WORKERS } from "../runtime/scripting/script-limits";

/** Everything read from the environment, once, at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  jwtSecret: string;
  bootstrapAdminEmail: string;
  bootstrapAdminPassword: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  mcpEnabled: boolean;
  /** MCP_ALLOWED_ORIGINS: browser origins allowed on /a/mcp besides localhost (DNS-rebinding protection). */
  mcpAllowedOrigins: string[];
  synchronous: SyncMode;
  maxOpenTenantDbs: number;
  /**
   * SQLite page caches: the engine database's (ENGINE_CACHE_MB, default 16) and each open tenant file's
   * (TENANT_CACHE_KB, default 256). They fill as the files grow and then stay: their sum is memory the service keeps.
   */
  sqliteCache: { engineKib: number; tenantKib: number };
  /** Rows a tenant drop deletes per batch and transaction (TENANT_DROP_BATCH_SIZE). */
  tenantDropBatchSize: number;
  /** TRUST_PROXY: a hop count (`true` = 1) or the trusted proxies' addresses/CIDRs; false = the socket address. */
  trustProxy: TrustProxy;
  /** Largest attachment or knowledge document accepted, in bytes (413 above). */
  maxUploadBytes: number;
  /** Interval of the comment lines kept flowing on server-sent event streams (SSE_HEARTBEAT_MS), so proxies keep them. */
  sseHeartbeatMs: number;
  /** Internal hosts webhook targets may use: ["*"] for WEBHOOKS_ALLOW_PRIVATE=true, or the listed hosts; none by default. */
  webhooksAllowPrivate: string[];
  /** Internal hosts http service tasks may call: ["*"] for HTTP_TASKS_ALLOW_PRIVATE=true, or the listed hosts; none by default. */
  httpTasksAllowPrivate: string[];
  /** Internal hosts registered MCP servers may be on: ["*"] for MCP_SERVERS_ALLOW_PRIVATE=true, or the listed hosts. */
  mcpServersAllowPrivate: string[];
  /** Calls to registered MCP servers: time of one exchange (MCP_TOOL_TIMEOUT_MS), exchanges at once per server (MCP_SERVER_CONCURRENCY). */
  mcpClient: { timeoutMs: number; perServer: number };
  /** pino level of the logs (LOG_LEVEL). */
  logLevel: string;
  /** When set, GET /metrics requires it as a bearer token. */
  metricsToken: string | null;
  /** SSO: the service's public origin (callback URL), where the browser lands with its one-time code, internal IdP hosts. */
  sso: { publicUrl: string; returnUrl: string; allowedPrivateHosts: string[] };
  ai: { baseUrl: string | null; apiKey: string | null; model: string | null; embeddingModel: string | null };
  /** Workers of the pool that runs model JavaScript (SCRIPT_WORKERS, at least 1; docs/limits.md). */
  scriptWorkers: number;
  /** The history cleanup's off-peak window and batch size (HISTORY_CLEANUP_WINDOW, HISTORY_CLEANUP_BATCH_SIZE). */
  historyCleanup: CleanupSettings;
  /** Fair share of expensive work per tenant (ADMISSION_PER_TENANT running, ADMISSION_QUEUE_PER_TENANT waiting). */
  admission: { perTenant: number; queuePerTenant: number };
  /** Password hashes computed at once (PASSWORD_HASH_CONCURRENCY, default: one core left to JavaScript) and waiting per key. */
  passwordHashing: { concurrency: number; queuePerKey: number };
  /** Webhook sends: at once in all (WEBHOOK_CONCURRENCY), per endpoint (WEBHOOK_ENDPOINT_CONCURRENCY), per attempt (WEBHOOK_TIMEOUT_MS). */
  webhookDelivery: { concurrency: number; perEndpoint: number; timeoutMs: number };
}

/** A whole number of at least `min` from the environment, else the default. */
const countOf = (v: string | undefined, fallback: number, min = 1) => {
  const n = Number(v);
  return v && Number.isInteger(n) && n >= min ? n : fallback;
};

/** Reads the JWT secret from the environment or from DATA_DIR, generating and keeping one on first start. */
function jwtSecretFor(dataDir: string, fromEnv: string | undefined): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, "jwt-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** `true` lets the caller reach every internal address (cloud metadata never); a comma list names the hosts allowed. */
function allowPrivateOf(v: string | undefined): string[] {
  const value = v?.trim().toLowerCase();
  if (!value || value === "false") return [];
  if (value === "true") return ["*"];
  // Lower case, as the destination check compares host names.
  return value
    .split(",")
    .map((h) => h.trim())
    .filter(Boolean);
}

function ssoConfig(env: Record<string, string | undefined>): Config["sso"] {
  const publicUrl = (env.PUBLIC_URL || `http://${env.HOST || "127.0.0.1"}:${env.PORT || 8080}`).replace(/\/+$/, "");
  return {
    publicUrl,
    returnUrl: env.SSO_RETURN_URL || `${publicUrl}/sso/complete`,
    allowedPrivateHosts: (env.SSO_ALLOWED_PRIVATE_HOSTS || "")
      .split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
  };
}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const dataDir = resolve(env.DATA_DIR || "./data");
  const sync = (env.SQLITE_SYNCHRONOUS || "NORMAL").toUpperCase();
  return {
    port: Number(env.PORT || 8080),
    host: env.HOST || "127.0.0.1",
    dataDir,
    jwtSecret: jwtSecretFor(dataDir, env.JWT_SECRET),
    bootstrapAdminEmail: (env.BOOTSTRAP_ADMIN_EMAIL || "admin@localhost").toLowerCase(),
    bootstrapAdminPassword: env.BOOTSTRAP_ADMIN_PASSWORD || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || "no-reply@localhost",
    mcpEnabled: (env.MCP_SERVER_ENABLED ?? "true") !== "false",
    mcpAllowedOrigins: (env.MCP_ALLOWED_ORIGINS || "")
      .split(",")
      .map((o) => o.trim().replace(/\/+$/, "").toLowerCase())
      .filter(Boolean),
    synchronous: sync === "FULL" || sync === "OFF" ? sync : "NORMAL",
    maxOpenTenantDbs: Number(env.MAX_OPEN_TENANT_DBS || 64),
    sqliteCache: {
      engineKib: countOf(env.ENGINE_CACHE_MB, 16) * 1024,
      tenantKib: countOf(env.TENANT_CACHE_KB, 256, 64),
    },
    tenantDropBatchSize: Math.max(1, Number(env.TENANT_DROP_BATCH_SIZE) || 500),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    maxUploadBytes: Number(env.MAX_UPLOAD_BYTES || 100 * 1024 * 1024),
    sseHeartbeatMs: Math.max(10, Number(env.SSE_HEARTBEAT_MS || 15_000)),
    scriptWorkers: countOf(env.SCRIPT_WORKERS, DEFAULT_SCRIPT_WORKERS),
    webhooksAllowPrivate: allowPrivateOf(env.WEBHOOKS_ALLOW_PRIVATE),
    httpTasksAllowPrivate: allowPrivateOf(env.HTTP_TASKS_ALLOW_PRIVATE),
    mcpServersAllowPrivate: allowPrivateOf(env.MCP_SERVERS_ALLOW_PRIVATE),
    mcpClient: {
      timeoutMs: countOf(env.MCP_TOOL_TIMEOUT_MS, 30_000, 100),
      perServer: countOf(env.MCP_SERVER_CONCURRENCY, 4),
    },
    logLevel: env.LOG_LEVEL || "info",
    metricsToken: env.METRICS_TOKEN || null,
    sso: ssoConfig(env),
    ai: {
      baseUrl: env.AI_BASE_URL || null,
      apiKey: env.AI_API_KEY || null,
      model: env.AI_MODEL || null,
      embeddingModel: env.AI_EMBEDDING_MODEL || null,
    },
    historyCleanup: cleanupSettingsOf(env),
    admission: {
      perTenant: countOf(env.ADMISSION_PER_TENANT, 4),
      queuePerTenant: countOf(env.ADMISSION_QUEUE_PER_TENANT, 256, 0),
    },
    passwordHashing: {
      concurrency: countOf(env.PASSWORD_HASH_CONCURRENCY, Math.max(1, availableParallelism() - 1)),
      queuePerKey: countOf(env.PASSWORD_HASH_QUEUE_PER_KEY, 32, 0),
    },
    webhookDelivery: {
      concurrency: countOf(env.WEBHOOK_CONCURRENCY, 128),
      perEndpoint: countOf(env.WEBHOOK_ENDPOINT_CONCURRENCY, 8),
      timeoutMs: countOf(env.WEBHOOK_TIMEOUT_MS, 10_000),
    },
  };
}
