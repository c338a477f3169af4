import type { Database } from "bun:sqlite";
import type { CountRow, DefinitionRow } from "./rows";
import { NotFoundError } from "../../../engine/errors";

export type RuntimeKind = "BPMN" | "CMMN";

/** A deployed version with its parsed model; the model's shape is the adapter's (ProcessModel, CaseModel). */
export interface StoredDefinition<M = unknown> {
  id: string;
  tenantId: string;
  key: string;
  name: string;
  version: number;
  type: RuntimeKind;
  model: M;
}

export interface DeployedVersion {
  key: string;
  definitionId: string;
  version: number;
  name: string;
  /** the version that stays published (new instances keep starting on it), when there is one */
  stillPublished: number | null;
}

type VersionRow = Pick<DefinitionRow, "id" | "name" | "version" | "xml" | "published">;

/**
 * The definitions table for processes and cases: one deploy rule (a new version per key per deployment, unpublished,
 * the published version kept), one parsed-model cache per version, and the read models the services need.
 */
export function createDefinitionsStore(db: Database, newId: () => string, nowIso: () => string) {
  const models = new Map<string, StoredDefinition>();
  const kinds = new Map<string, RuntimeKind>();
  // What a start reads of its key, kept so a start reads no row before its command: the version it starts on (by
  // tenant, key and type), whether the key is suspended and its business key template. Whatever changes them calls
  // `forget` in its transaction (a deploy here; publish, suspension and configuration in the process runtime; the
  // tenant purge), before anything reads again.
  const startIds = new Map<string, string | null>();
  const startSettings = new Map<string, { suspended: boolean; businessKeyTemplate: string | null }>();
  const keyKinds = new Map<string, RuntimeKind | null>();
  const keyOf = (tenantId: string, key: string) => `${tenantId}\u0000${key}`;
  const kept = <V>(m: Map<string, V>, k: string, read: () => V): V => {
    if (m.has(k)) return m.get(k) as V;
    if (m.size >= 10_000) m.clear();
    const v = read();
    m.set(k, v);
    return v;
  };
  const q = {
    byId: db.query<DefinitionRow, [string]>("SELECT * FROM definitions WHERE id = ?"),
    startSettings: db.query<{ suspended: number; business_key_template: string | null }, [string, string]>(
      "SELECT suspended, business_key_template FROM definition_settings WHERE tenant_id = ? AND key = ?",
    ),
    startable: db.query<{ id: string }, [string, string, string]>(
      "SELECT id FROM definitions WHERE tenant_id = ? AND key = ? AND type = ? ORDER BY published DESC, version DESC LIMIT 1",
    ),
    kindOfKey: db.query<{ type: RuntimeKind }, [string, string]>(
      "SELECT type FROM definitions WHERE tenant_id = ? AND key = ? LIMIT 1",
    ),
    kindOfId: db.query<{ type: RuntimeKind }, [string, string]>(
      "SELECT type FROM definitions WHERE id = ? AND tenant_id = ?",
    ),
    xml: db.query<{ xml: string }, [string, string]>("SELECT xml FROM definitions WHERE id = ? AND tenant_id = ?"),
    deployment: db.query(
      "INSERT INTO deployments (id, tenant_id, file_name, created_by, created_at) VALUES (?,?,?,?,?)",
    ),
    maxVersion: db.query<{ v: number | null }, [string, string]>(
      "SELECT MAX(version) AS v FROM definitions WHERE tenant_id = ? AND key = ?",
    ),
    insert: db.query(
      "INSERT INTO definitions (id, tenant_id, key, name, type, version, deployment_id, xml, model, published, created_at) VALUES (?,?,?,?,?,?,?,?,?,0,?)",
    ),
    settings: db.query(
      "INSERT OR IGNORE INTO definition_settings (tenant_id, key, suspended, catalog_enabled, updated_at) VALUES (?,?,0,1,?)",
    ),
    published: db.query<{ version: number }, [string, string]>(
      "SELECT version FROM definitions WHERE tenant_id = ? AND key = ? AND published = 1",
    ),
    versions: db.query<VersionRow, [string, string]>(
      "SELECT id, version, name, published, xml FROM definitions WHERE tenant_id = ? AND key = ? ORDER BY version DESC",
    ),
  };

  const store = {
    /** A version with its parsed model (cached: a deployed version never changes), or null. */
    definition<M>(id: string, type?: RuntimeKind): StoredDefinition<M> | null {
      let d = models.get(id);
      if (!d) {
        const r = q.byId.get(id);
        if (!r?.model) return null;
        d = {
          id: r.id,
          tenantId: r.tenant_id,
          key: r.key,
          name: r.name,
          version: r.version,
          type: r.type as RuntimeKind,
          model: JSON.parse(r.model),
        };
        models.set(id, d);
      }
      return !type || d.type === type ? (d as StoredDefinition<M>) : null;
    },
    /** The version new instances start on: the published one, else the latest. */
    startable<M>(tenantId: string, key: string, type: RuntimeKind): StoredDefinition<M> | null {
      const id = kept(
        startIds,
        `${keyOf(tenantId, key)}\u0000${type}`,
        () => q.startable.get(tenantId, key, type)?.id ?? null,
      );
      return id ? store.definition<M>(id) : null;
    },
    /** What a start of the key needs of its settings: whether it is suspended, and its business key template. */
    startSettings: (tenantId: string, key: string) =>
      kept(startSettings, keyOf(tenantId, key), () => {
        const r = q.startSettings.get(tenantId, key);
        return { suspended: !!r?.suspended, businessKeyTemplate: r?.business_key_template ?? null };
      }),
    /** True when no new instance of the key may start (its definition is suspended). */
    isSuspended: (tenantId: string, key: string): boolean => store.startSettings(tenantId, key).suspended,
    /** Drops what is kept of a key (call it inside the transaction that deploys, publishes or suspends it). */
    forget(tenantId: string, key: string): void {
      const k = keyOf(tenantId, key);
      startSettings.delete(k);
      keyKinds.delete(k);
      for (const type of ["BPMN", "CMMN"]) startIds.delete(`${k}\u0000${type}`);
    },
    /** Drops everything kept (a tenant's rows are being purged). */
    forgetAll(): void {
      startIds.clear();
      startSettings.clear();
      keyKinds.clear();
    },
    /** Process or case, by key (kept: this is on the start path; a deploy of the key forgets it). */
    kindOfKey: (tenantId: string, key: string): RuntimeKind | null =>
      kept(keyKinds, keyOf(tenantId, key), () => q.kindOfKey.get(tenantId, key)?.type ?? null),
    /** Process or case, by version id; kept, since a deployed version never changes type. */
    kindOfDefinition(tenantId: string, definitionId: string): RuntimeKind | null {
      // Keyed with the tenant: another tenant's version id must not find an answer here.
      const k = keyOf(tenantId, definitionId);
      const hit = kinds.get(k);
      if (hit) return hit;
      const type = q.kindOfId.get(definitionId, tenantId)?.type ?? null;
      if (type) {
        if (kinds.size > 10_000) kinds.clear();
        kinds.set(k, type);
      }
      return type;
    },
    hasKey: (tenantId: string, key: string): boolean => !!q.kindOfKey.get(tenantId, key),
    xmlOf: (tenantId: string, definitionId: string): string | null => q.xml.get(definitionId, tenantId)?.xml ?? null,

    /** Stores a new version of each model of one file (the caller holds the transaction). */
    deployVersions(
      tenantId: string,
      type: RuntimeKind,
      xml: string,
      items: Array<{ key: string; name: string; model: unknown }>,
      meta: { fileName: string; createdBy: string | null },
    ): { deploymentId: string; versions: DeployedVersion[] } {
      const deploymentId = newId();
      q.deployment.run(deploymentId, tenantId, meta.fileName, meta.createdBy, nowIso());
      const versions = items.map((it) => {
        store.forget(tenantId, it.key);
        const version = (q.maxVersion.get(tenantId, it.key)?.v ?? 0) + 1;
        const id = newId();
        q.insert.run(
          id,
          tenantId,
          it.key,
          it.name,
          type,
          version,
          deploymentId,
          xml,
          JSON.stringify(it.model),
          nowIso(),
        );
        q.settings.run(tenantId, it.key, nowIso());
        const pub = q.published.get(tenantId, it.key);
        return { key: it.key, definitionId: id, version, name: it.name, stillPublished: pub?.version ?? null };
      });
      return { deploymentId, versions };
    },

    /**
     * The monitor's version rule: the one asked for; else the one with most running instances (ties: the higher); else
     * the published one, else the latest. `running` counts running instances per version.
     */
    pickVersion(tenantId: string, key: string, running: Array<{ version: number } & CountRow>, version?: number) {
      const defs = q.versions.all(tenantId, key);
      if (!defs.length) throw new NotFoundError(`Definition '${key}' not found`);
      let chosen: VersionRow | undefined;
      if (version !== undefined && version !== null) {
        chosen = defs.find((d) => d.version === Number(version));
        if (!chosen) throw new NotFoundError(`Version ${version} of '${key}' not found`);
      } else if (running.length) {
        const best = [...running].sort((a, b) => b.c - a.c || b.version - a.version)[0];
        chosen = defs.find((d) => d.version === best.version);
      }
      chosen ??= defs.find((d) => d.published) ?? defs[0];
      const count = (v: number) => running.find((c) => c.version === v)?.c ?? 0;
      const total = running.reduce((s, c) => s + c.c, 0);
      return {
        chosen,
        definitionName: chosen.name,
        version: chosen.version,
        bpmnXml: chosen.xml,
        runningInstances: count(chosen.version),
        runningInstancesOtherVersions: total - count(chosen.version),
        versions: defs.map((d) => ({ version: d.version, runningInstances: count(d.version) })),
      };
    },
  };
  return store;
}
export type DefinitionsStore = ReturnType<typeof createDefinitionsStore>;
