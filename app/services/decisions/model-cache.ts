import { parseDmn, type DmnModel } from "../../../engine/dmn";
import type { ImportResolver } from "../../../engine/dmn/model/imports";

const MAX_MODELS = 500;
const models = new Map<string, Promise<DmnModel>>();

/**
 * Parsed (compiled) models by decision version id. A version's XML never changes, so a compiled model stays valid
 * until evicted; the bound keeps memory flat with many tenants.
 */
export function compiledModel(versionId: string, xml: string, resolve?: ImportResolver): Promise<DmnModel> {
  let m = models.get(versionId);
  if (m) {
    models.delete(versionId);
    models.set(versionId, m);
    return m;
  }
  m = parseDmn(xml, resolve);
  m.catch(() => models.delete(versionId));
  models.set(versionId, m);
  if (models.size > MAX_MODELS) models.delete(models.keys().next().value as string);
  return m;
}
