import type { DmnModel } from "../../../engine/dmn";
import type { ImportResolver } from "../../../engine/dmn/model/imports";
import { compiledModel } from "./model-cache";
import { latestDecisions, type DecisionDb, type DecisionRow } from "./store";

const HAS_IMPORT = /<(?:[\w-]+:)?import\b/;

/**
 * The compiled model of a stored decision version. A model importing others (DMN `<import>`) is compiled against the
 * tenant's latest models with those namespaces, so its cache key names the tenant's latest versions too: a new
 * version of an imported model is seen at the next evaluation.
 */
export function modelOf(
  p: DecisionDb,
  tenantId: string,
  row: DecisionRow,
  seen = new Set<string>(),
): Promise<DmnModel> {
  if (!HAS_IMPORT.test(row.xml)) return compiledModel(row.id, row.xml);
  const latest = latestDecisions(p, tenantId);
  const key = `${row.id}|${latest.map((r) => r.id).join(",")}`;
  return compiledModel(key, row.xml, importResolver(p, tenantId, new Set([...seen, row.deploymentId]), latest));
}

/**
 * Finds an imported namespace among the tenant's latest decision files (one file per deployment); a file already on
 * the import chain is skipped, so models importing each other are refused instead of looping.
 */
export function importResolver(
  p: DecisionDb,
  tenantId: string,
  seen: Set<string>,
  latest: DecisionRow[] = latestDecisions(p, tenantId),
): ImportResolver {
  return async (namespace) => {
    const files = new Map<string, DecisionRow>();
    for (const r of latest) if (!seen.has(r.deploymentId) && r.xml.includes(namespace)) files.set(r.deploymentId, r);
    for (const r of files.values()) {
      const model = await modelOf(p, tenantId, r, seen);
      if (model.namespace === namespace) return model;
    }
    return null;
  };
}
