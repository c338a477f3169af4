import { BadRequestError } from "../../../engine/errors";
import { parseCmmn } from "../../../engine/model/cmmn";
import type { CaseContext } from "./context";
import type { Row } from "../bpmn/rows";

export interface CaseDeployResult {
  deploymentId: string;
  definitions: Array<{ key: string; definitionId: string; version: number; name: string; type: "CMMN" }>;
  warnings: string[];
}

/** Deploys every case of a CMMN file as a new version in the shared definitions table (type CMMN), like processes. */
export function createCaseDefinitions(ctx: CaseContext) {
  const { db } = ctx;
  const nowIso = () => new Date(ctx.clock()).toISOString();
  return {
    async deploy(
      tenantId: string,
      xml: string,
      meta: { fileName: string; createdBy: string | null },
    ): Promise<CaseDeployResult> {
      const parsed = await parseCmmn(xml);
      const warnings = [...parsed.warnings];
      for (const c of parsed.cases) {
        const other = db
          .query("SELECT type FROM definitions WHERE tenant_id = ? AND key = ? AND type <> 'CMMN' LIMIT 1")
          .get(tenantId, c.id) as Row | null;
        if (other)
          throw new BadRequestError(
            `Key '${c.id}' is already used by a ${other.type} definition; give the case another id`,
          );
      }
      const deploymentId = ctx.newId();
      const created: CaseDeployResult["definitions"] = [];
      ctx.tx(() => {
        db.query("INSERT INTO deployments (id, tenant_id, file_name, created_by, created_at) VALUES (?,?,?,?,?)").run(
          deploymentId,
          tenantId,
          meta.fileName,
          meta.createdBy,
          nowIso(),
        );
        for (const c of parsed.cases) {
          const max = (
            db
              .query("SELECT MAX(version) AS v FROM definitions WHERE tenant_id = ? AND key = ?")
              .get(tenantId, c.id) as Row
          ).v as number | null;
          const version = (max ?? 0) + 1;
          const id = ctx.newId();
          db.query(
            "INSERT INTO definitions (id, tenant_id, key, name, type, version, deployment_id, xml, model, published, created_at) VALUES (?,?,?,?,'CMMN',?,?,?,?,0,?)",
          ).run(id, tenantId, c.id, c.name, version, deploymentId, xml, JSON.stringify(c), nowIso());
          db.query(
            "INSERT OR IGNORE INTO definition_settings (tenant_id, key, suspended, catalog_enabled, updated_at) VALUES (?,?,0,1,?)",
          ).run(tenantId, c.id, nowIso());
          const pub = db
            .query("SELECT version FROM definitions WHERE tenant_id = ? AND key = ? AND published = 1")
            .get(tenantId, c.id) as Row | null;
          if (pub)
            warnings.push(
              `Case '${c.id}': version ${version} is deployed but version ${pub.version} stays published; publish it to start new cases on it`,
            );
          created.push({ key: c.id, definitionId: id, version, name: c.name, type: "CMMN" });
        }
      });
      return { deploymentId, definitions: created, warnings };
    },

    /** Parses without deploying: case ids and warnings, or a CmmnDeployError naming the problem. */
    async validate(xml: string): Promise<{ cases: string[]; warnings: string[] }> {
      const parsed = await parseCmmn(xml);
      return { cases: parsed.cases.map((c) => c.id), warnings: parsed.warnings };
    },
  };
}
