import type { PlatformPorts, TenantStorage } from "../services/context";
import { AccessRevocations } from "../services/auth/revocations";
import { createConfirmationSigner } from "../services/mcp-run/confirmation";
import { createSecretBox } from "../services/secret-box";
import { Admission } from "../services/admission";
import { McpRemoteTools } from "../services/admin-mcp-servers/remote";
import { MCP_ANSWER_MAX_BYTES } from "../services/admin-mcp-servers/limits";
import { wireAi, wireServiceJobs } from "./knowledge-wiring";
import type { WebhooksWiring } from "./webhooks";
import type { ProcessRuntime } from "../runtime/bpmn";
import type { CaseRuntime } from "../runtime/cmmn";
import type { PlatformCore } from "./platform";

/** The ports every operation's ctx is built from (app/services/context.ts), assembled once from the platform's parts. */
export function assemblePorts(
  platform: PlatformCore & { processRuntime: ProcessRuntime; caseRuntime: CaseRuntime; webhooks: WebhooksWiring },
  tenantStorage: TenantStorage,
  track: (work: Promise<unknown>) => void,
  services: Pick<PlatformPorts, "processAccess" | "cmsQuery">,
): PlatformPorts {
  const { config, tenants, tenantDbs, log } = platform;
  const platformDb = platform.platformDb;
  return {
    ...services,
    platformDb,
    tenants,
    tokens: platform.tokens,
    revocations: new AccessRevocations(platformDb),
    mailer: platform.mailer,
    limiters: platform.limiters,
    admission: new Admission({
      name: "expensive requests",
      perKey: config.admission.perTenant,
      queuePerKey: config.admission.queuePerTenant,
    }),
    processRuntime: platform.processRuntime,
    caseRuntime: platform.caseRuntime,
    decisionStore: platform.decisionStore,
    provisionInBackground: platform.provisionInBackground,
    tenantDb: (tenantId) => tenantDbs.get(tenantId),
    isDegraded: (tenantId) => tenantDbs.degradedReason(tenantId),
    sso: { ...config.sso, box: createSecretBox(config.jwtSecret, "sso-client-secret") },
    settings: {
      mcpEnabled: config.mcpEnabled,
      mcpAllowedOrigins: config.mcpAllowedOrigins,
      maxUploadBytes: config.maxUploadBytes,
      dataDir: config.dataDir,
      sseHeartbeatMs: config.sseHeartbeatMs,
    },
    mcpConfirmations: createConfirmationSigner(config.jwtSecret),
    mcpServers: new McpRemoteTools({
      box: createSecretBox(config.jwtSecret, "mcp-server-auth-header"),
      limits: {
        policy: { allowedPrivate: config.mcpServersAllowPrivate },
        timeoutMs: config.mcpClient.timeoutMs,
        maxAnswerBytes: MCP_ANSWER_MAX_BYTES,
      },
      perServer: config.mcpClient.perServer,
      now: () => platform.clock.now(),
    }),
    webhooks: platform.webhooks.port,
    ai: wireAi(platform),
    serviceJobs: wireServiceJobs(platform),
    tenantStorage,
    log,
    defer(work) {
      track(
        new Promise((r) => setTimeout(r, 0))
          .then(work)
          .catch((e) => log(`[defer] background work failed: ${e instanceof Error ? e.message : e}`)),
      );
    },
  };
}
