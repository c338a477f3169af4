import type { TenantDb } from "../../../tenants/tenant-db-cache";
import { findFormRow, versionById } from "./store";

/**
 * What the task service uses from forms. A task locks a version when it is created and validates completion against
 * that version, however the form changes later.
 */
export { missingRequiredFields } from "./required-fields";

/** The version a task created now must lock: the published one, else the latest; null when the process has no such form. */
export function formVersionFor(tenantDb: TenantDb, definitionKey: string, formKey: string): string | null {
  const f = findFormRow(tenantDb, definitionKey, formKey);
  if (!f) return null;
  return f.publishedVersionId ?? f.latestVersionId;
}

export interface LockedForm {
  versionId: string;
  num: number;
  processKey: string;
  formKey: string;
  name: string;
  schema: Record<string, unknown>;
}

/** A locked version with its schema, or null when it no longer exists (the form was deleted). */
export function formForVersion(tenantDb: TenantDb, versionId: string): LockedForm | null {
  const v = versionById(tenantDb, versionId);
  if (!v) return null;
  const f = tenantDb.sqlite
    .query<{ processKey: string; key: string; name: string }, [string]>(
      `SELECT process_key AS processKey, key, name FROM forms WHERE id = ?`,
    )
    .get(v.formId);
  if (!f) return null;
  return {
    versionId: v.id,
    num: v.num,
    processKey: f.processKey,
    formKey: f.key,
    name: f.name,
    schema: JSON.parse(v.schema),
  };
}
