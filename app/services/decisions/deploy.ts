import { decisions } from "../../../db/engine/schema";
import { listDecisions, parseDmn } from "../../../engine/dmn";
import { immediate } from "../../../db/connection";
import { BadRequestError } from "../errors";
import { nextVersion, type DecisionDb } from "./store";
import { withDmnErrors } from "./dmn-errors";

export interface DeployedDecision {
  key: string;
  name: string;
  version: number;
}

/**
 * Stores a new version of every decision in the file, all or nothing. The file is parsed (compiled) first, so an
 * invalid model writes nothing and answers 400 naming the element.
 */
export async function deployDecisionXml(
  p: DecisionDb,
  tenantId: string,
  xml: string,
  opts: { createdBy: string | null; sourceTemplate?: string | null; only?: string },
): Promise<{ deploymentId: string; decisions: DeployedDecision[] }> {
  const model = await withDmnErrors(() => parseDmn(xml));
  let found = listDecisions(model);
  if (opts.only) found = found.filter((d) => d.key === opts.only);
  if (!found.length) throw new BadRequestError("The DMN file contains no decision");
  const deploymentId = crypto.randomUUID();
  const now = new Date(p.clock.now()).toISOString();
  const deployed = immediate(p.engineSqlite, () =>
    found.map((d) => {
      const version = nextVersion(p, tenantId, d.key);
      p.engineDb
        .insert(decisions)
        .values({
          id: crypto.randomUUID(),
          tenantId,
          key: d.key,
          name: d.name || d.key,
          version,
          deploymentId,
          xml,
          sourceTemplate: opts.sourceTemplate ?? null,
          createdBy: opts.createdBy,
          createdAt: now,
        })
        .run();
      return { key: d.key, name: d.name || d.key, version };
    }),
  );
  return { deploymentId, decisions: deployed };
}

/** Removes every version of a decision key of the tenant; returns how many rows went. */
export function deleteDecision(p: DecisionDb, tenantId: string, key: string): number {
  return p.engineSqlite.query("delete from decisions where tenant_id = ? and key = ?").run(tenantId, key).changes;
}
