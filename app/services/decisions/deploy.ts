import { listDecisions, parseDmn } from "../../../engine/dmn";
import { BadRequestError } from "../errors";
import type { DecisionDb } from "./store";
import { withDmnErrors } from "./dmn-errors";
import { importResolver } from "./tenant-models";

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
  const model = await withDmnErrors(() => parseDmn(xml, importResolver(p, tenantId, new Set())));
  let found = listDecisions(model);
  if (opts.only) found = found.filter((d) => d.key === opts.only);
  if (!found.length) throw new BadRequestError("The DMN file contains no decision");
  const stored = await p.decisionStore.deploy(
    tenantId,
    found.map((d) => ({ key: d.key, name: d.name || d.key })),
    {
      xml,
      createdBy: opts.createdBy,
      sourceTemplate: opts.sourceTemplate ?? null,
      createdAt: new Date(p.clock.now()).toISOString(),
    },
  );
  return stored;
}

/** Removes every version of a decision key of the tenant; returns how many rows went. */
export function deleteDecision(p: DecisionDb, tenantId: string, key: string): Promise<number> {
  return p.decisionStore.remove(tenantId, key);
}
