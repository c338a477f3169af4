import { BadRequestError } from "../../../engine/errors";
import { parseCmmnOffThread } from "../kernel/model-parse";
import type { DeployResultOf } from "../kernel/instance-summary";
import type { CaseContext } from "./context";

export type CaseDeployResult = DeployResultOf<"CMMN">;

/** Deploys every case of a CMMN file as a new version in the shared definitions table (type CMMN), like processes. */
export function createCaseDefinitions(ctx: CaseContext) {
  const { db } = ctx;
  const otherType = db.query<{ type: string }, [string, string]>(
    "SELECT type FROM definitions WHERE tenant_id = ? AND key = ? AND type <> 'CMMN' LIMIT 1",
  );
  return {
    async deploy(
      tenantId: string,
      xml: string,
      meta: { fileName: string; createdBy: string | null },
    ): Promise<CaseDeployResult> {
      const parsed = await parseCmmnOffThread(xml);
      const warnings = [...parsed.warnings];
      for (const c of parsed.cases) {
        const other = otherType.get(tenantId, c.id);
        if (other)
          throw new BadRequestError(
            `Key '${c.id}' is already used by a ${other.type} definition; give the case another id`,
          );
      }
      await ctx.kernel.writable();
      const deployed = ctx.kernel.tx(() =>
        ctx.kernel.definitions.deployVersions(
          tenantId,
          "CMMN",
          xml,
          parsed.cases.map((c) => ({ key: c.id, name: c.name, model: c })),
          meta,
        ),
      );
      const created = deployed.versions.map((v) => {
        if (v.stillPublished !== null)
          warnings.push(
            `Case '${v.key}': version ${v.version} is deployed but version ${v.stillPublished} stays published; publish it to start new cases on it`,
          );
        return { key: v.key, definitionId: v.definitionId, version: v.version, name: v.name, type: "CMMN" as const };
      });
      return { deploymentId: deployed.deploymentId, definitions: created, warnings };
    },

    /** Parses without deploying: case ids and warnings, or a CmmnDeployError naming the problem. */
    async validate(xml: string): Promise<{ cases: string[]; warnings: string[] }> {
      const parsed = await parseCmmnOffThread(xml);
      return { cases: parsed.cases.map((c) => c.id), warnings: parsed.warnings };
    },
  };
}
