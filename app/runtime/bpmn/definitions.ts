import { BadRequestError, BpmnDeployError, NotFoundError } from "../../../engine/errors";
import { validateProcess } from "../../../engine/model/bpmn";
import type { DeployResultOf } from "../kernel/instance-summary";
import type { RuntimeContext } from "./context";
import type { DefinitionRow, SettingsRow } from "../kernel/rows";
import { refreshStartEvents } from "./start-events";
import { parseBpmnOffThread } from "../kernel/model-parse";
import { MAX_HISTORY_TTL_DAYS } from "../kernel/history-cleanup";

export const MCP_POLICIES = ["NONE", "START_AND_READ", "START_AND_COMPLETE"] as const;
export type McpPolicy = (typeof MCP_POLICIES)[number];
export interface AttachmentPolicy {
  uploadMode: string;
  uploadRoles: string[];
  previewRoles: string[];
  replaceRoles: string[];
}
export interface DefinitionConfig {
  businessKeyTemplate: string | null;
  attachmentPolicy: AttachmentPolicy | null;
  mcpPolicy: McpPolicy;
  /** Days an ended instance is kept (null: the tenant default applies). */
  historyTimeToLive: number | null;
}

/** A history time-to-live in days: a whole number from 0 to MAX_HISTORY_TTL_DAYS, or null (not set). */
export function checkTtl(days: number | null, field: string): number | null {
  if (days !== null && (!Number.isInteger(days) || days < 0 || days > MAX_HISTORY_TTL_DAYS))
    throw new BadRequestError(`${field} must be a whole number of days from 0 to ${MAX_HISTORY_TTL_DAYS}, or null`, {
      field,
    });
  return days;
}

export type DeployResult = DeployResultOf<"BPMN">;

/**
 * Definition operations: deploy (new version per process key), versions, publish, suspend, catalog, configuration.
 * Every write waits for the checkpointer's write gate first (`kernel.writable()`).
 */
export function createDefinitions(ctx: RuntimeContext) {
  const { db } = ctx;
  const nowIso = () => new Date(ctx.clock()).toISOString();
  const ensureSettings = (tenantId: string, key: string) =>
    db
      .query(
        "INSERT OR IGNORE INTO definition_settings (tenant_id, key, suspended, catalog_enabled, updated_at) VALUES (?,?,0,1,?)",
      )
      .run(tenantId, key, nowIso());
  const rowsOf = (tenantId: string, key: string) =>
    db
      .query<DefinitionRow, [string, string]>(
        "SELECT * FROM definitions WHERE tenant_id = ? AND key = ? ORDER BY version DESC",
      )
      .all(tenantId, key);
  const requireKey = (tenantId: string, key: string): DefinitionRow[] => {
    const rows = rowsOf(tenantId, key);
    if (!rows.length) throw new NotFoundError(`Definition '${key}' not found`);
    return rows;
  };
  /** The key exists (NotFound otherwise), answered from the kernel's kept key types: no version row is read. */
  const requireExisting = (tenantId: string, key: string): void => {
    if (!ctx.kernel.definitions.kindOfKey(tenantId, key)) throw new NotFoundError(`Definition '${key}' not found`);
  };
  const settings = (tenantId: string, key: string): Partial<SettingsRow> =>
    db
      .query<SettingsRow, [string, string]>("SELECT * FROM definition_settings WHERE tenant_id = ? AND key = ?")
      .get(tenantId, key) ?? { suspended: 0, catalog_enabled: 1 };
  const summary = (tenantId: string, key: string, rows: DefinitionRow[]) => {
    const latest = rows[0];
    const published = rows.find((r) => r.published);
    const startable = published ?? latest;
    const st = settings(tenantId, key);
    const model = startable.model ? JSON.parse(startable.model) : null;
    return {
      key,
      name: latest.name,
      type: latest.type as string,
      definitionId: latest.id as string,
      version: latest.version as number,
      latestVersion: latest.version as number,
      publishedVersion: published ? (published.version as number) : null,
      publishedDefinitionId: published ? (published.id as string) : null,
      suspended: !!st.suspended,
      enabled: !!st.catalog_enabled,
      startFormKey: (model?.startFormKey ?? null) as string | null,
      deployedAt: latest.created_at as string,
    };
  };

  const api = {
    /** Parses, validates and stores a new version of every executable process of the file. */
    async deploy(
      tenantId: string,
      xml: string,
      meta: { fileName: string; createdBy: string | null },
    ): Promise<DeployResult> {
      if (!xml?.trim()) throw new BpmnDeployError("The file is empty");
      const parsed = await parseBpmnOffThread(xml);
      if (!parsed.processes.length) {
        throw new BpmnDeployError(
          parsed.allProcessIds.length
            ? `No executable process: ${parsed.allProcessIds.map((p) => `'${p}'`).join(", ")} ${parsed.allProcessIds.length > 1 ? "are" : "is"} marked isExecutable="false"`
            : "No process found in the file",
        );
      }
      const warnings = [...parsed.warnings];
      for (const p of parsed.processes)
        warnings.push(...validateProcess(p, { knownDelegate: (n) => !!ctx.delegates.get(n) }));
      await ctx.kernel.writable();
      const deployed = ctx.tx(() => {
        const d = ctx.kernel.definitions.deployVersions(
          tenantId,
          "BPMN",
          xml,
          parsed.processes.map((p) => ({ key: p.id, name: p.name, model: p })),
          meta,
        );
        for (const v of d.versions) {
          if (v.stillPublished !== null) {
            const msg = `Process '${v.key}': version ${v.version} is deployed but version ${v.stillPublished} stays published; publish it to start new instances on it`;
            warnings.push(msg);
            ctx.logger.warn(msg, { tenantId });
          }
          warnings.push(...refreshStartEvents(ctx, tenantId, v.key));
        }
        return d;
      });
      const created = deployed.versions.map((v) => ({
        key: v.key,
        definitionId: v.definitionId,
        version: v.version,
        name: v.name,
        type: "BPMN" as const,
      }));
      return { deploymentId: deployed.deploymentId, definitions: created, warnings };
    },

    list(tenantId: string) {
      const keys = db
        .query<{ key: string }, [string]>("SELECT DISTINCT key FROM definitions WHERE tenant_id = ? ORDER BY key")
        .all(tenantId);
      return keys.map((k) => summary(tenantId, k.key, rowsOf(tenantId, k.key)));
    },

    get(tenantId: string, key: string) {
      return summary(tenantId, key, requireKey(tenantId, key));
    },

    versions(tenantId: string, key: string) {
      return requireKey(tenantId, key).map((r) => ({
        definitionId: r.id as string,
        key,
        name: r.name as string,
        version: r.version as number,
        published: !!r.published,
        deploymentId: r.deployment_id as string,
        createdAt: r.created_at as string,
        type: r.type as string,
      }));
    },

    /**
     * Publish, suspension, the catalog toggle and the configuration wait first while the checkpointer holds the
     * engine's writes (a write now would wait for SQLite's lock in the busy handler, on the event loop), then read
     * and check the definition as it is after the wait.
     */
    async publish(tenantId: string, key: string, definitionId: string) {
      await ctx.kernel.writable();
      const rows = requireKey(tenantId, key);
      if (!rows.some((r) => r.id === definitionId))
        throw new NotFoundError(`Version ${definitionId} of '${key}' not found`);
      ctx.tx(() => {
        ctx.kernel.definitions.forget(tenantId, key);
        db.query("UPDATE definitions SET published = (id = ?) WHERE tenant_id = ? AND key = ?").run(
          definitionId,
          tenantId,
          key,
        );
        refreshStartEvents(ctx, tenantId, key);
      });
      return api.get(tenantId, key);
    },

    xml(tenantId: string, key: string, definitionId?: string): string {
      const rows = requireKey(tenantId, key);
      const r = definitionId ? rows.find((x) => x.id === definitionId) : rows[0];
      if (!r) throw new NotFoundError(`Version ${definitionId} of '${key}' not found`);
      return r.xml as string;
    },

    async setSuspended(tenantId: string, key: string, suspended: boolean) {
      await ctx.kernel.writable();
      const rows = requireKey(tenantId, key);
      if (rows[0].type !== "BPMN") throw new BadRequestError("Only BPMN definitions can be suspended or activated");
      ctx.tx(() => {
        ctx.kernel.definitions.forget(tenantId, key);
        ensureSettings(tenantId, key);
        db.query("UPDATE definition_settings SET suspended = ?, updated_at = ? WHERE tenant_id = ? AND key = ?").run(
          suspended ? 1 : 0,
          nowIso(),
          tenantId,
          key,
        );
        refreshStartEvents(ctx, tenantId, key);
      });
      return api.get(tenantId, key);
    },

    async toggle(tenantId: string, key: string) {
      await ctx.kernel.writable();
      requireExisting(tenantId, key);
      ctx.tx(() => {
        ensureSettings(tenantId, key);
        db.query(
          "UPDATE definition_settings SET catalog_enabled = 1 - catalog_enabled, updated_at = ? WHERE tenant_id = ? AND key = ?",
        ).run(nowIso(), tenantId, key);
      });
      return api.get(tenantId, key);
    },

    /** The key's business key template for a start (kept; null: the system default). */
    businessKeyTemplate: (tenantId: string, key: string): string | null =>
      ctx.kernel.definitions.startSettings(tenantId, key).businessKeyTemplate,

    getConfig(tenantId: string, key: string): DefinitionConfig {
      requireExisting(tenantId, key);
      const st = settings(tenantId, key);
      return {
        businessKeyTemplate: st.business_key_template ?? null,
        attachmentPolicy: st.attachment_policy ? JSON.parse(st.attachment_policy) : null,
        mcpPolicy: (st.mcp_policy ?? "NONE") as McpPolicy,
        historyTimeToLive: st.history_ttl_days ?? null,
      };
    },

    /** Stores the fields given (others unchanged); validates the MCP policy and the attachment policy shape. */
    async putConfig(tenantId: string, key: string, input: Partial<DefinitionConfig>): Promise<DefinitionConfig> {
      await ctx.kernel.writable();
      requireExisting(tenantId, key);
      if (input.mcpPolicy !== undefined && !MCP_POLICIES.includes(input.mcpPolicy))
        throw new BadRequestError(`mcpPolicy must be one of ${MCP_POLICIES.join(", ")}`, { field: "mcpPolicy" });
      const ap = input.attachmentPolicy;
      if (ap !== undefined && ap !== null) {
        if (typeof ap !== "object" || typeof ap.uploadMode !== "string" || !ap.uploadMode.trim())
          throw new BadRequestError("attachmentPolicy.uploadMode is required", {
            field: "attachmentPolicy.uploadMode",
          });
        for (const f of ["uploadRoles", "previewRoles", "replaceRoles"] as const) {
          if (ap[f] !== undefined && (!Array.isArray(ap[f]) || ap[f].some((x) => typeof x !== "string")))
            throw new BadRequestError(`attachmentPolicy.${f} must be a list of role keys`, {
              field: `attachmentPolicy.${f}`,
            });
        }
      }
      ctx.tx(() => {
        ctx.kernel.definitions.forget(tenantId, key); // the kept business key template of the start path
        ensureSettings(tenantId, key);
        if (input.businessKeyTemplate !== undefined)
          db.query("UPDATE definition_settings SET business_key_template = ? WHERE tenant_id = ? AND key = ?").run(
            input.businessKeyTemplate,
            tenantId,
            key,
          );
        if (ap !== undefined)
          db.query("UPDATE definition_settings SET attachment_policy = ? WHERE tenant_id = ? AND key = ?").run(
            ap === null
              ? null
              : JSON.stringify({
                  uploadMode: ap.uploadMode,
                  uploadRoles: ap.uploadRoles ?? [],
                  previewRoles: ap.previewRoles ?? [],
                  replaceRoles: ap.replaceRoles ?? [],
                }),
            tenantId,
            key,
          );
        if (input.historyTimeToLive !== undefined)
          db.query("UPDATE definition_settings SET history_ttl_days = ? WHERE tenant_id = ? AND key = ?").run(
            checkTtl(input.historyTimeToLive, "historyTimeToLive"),
            tenantId,
            key,
          );
        if (input.mcpPolicy !== undefined)
          db.query("UPDATE definition_settings SET mcp_policy = ? WHERE tenant_id = ? AND key = ?").run(
            input.mcpPolicy,
            tenantId,
            key,
          );
        db.query("UPDATE definition_settings SET updated_at = ? WHERE tenant_id = ? AND key = ?").run(
          nowIso(),
          tenantId,
          key,
        );
      });
      return api.getConfig(tenantId, key);
    },
  };
  return api;
}
