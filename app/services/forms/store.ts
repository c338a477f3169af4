import type { TenantDb } from "../../../tenants/tenant-db-cache";
import { NotFoundError } from "../errors";

/** A form row joined with its latest and published version numbers (one query, no N+1 on lists). */
export interface FormRow {
  id: string;
  processKey: string;
  key: string;
  name: string;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
  publishedVersionId: string | null;
  publishedVersionNum: number | null;
  latestVersionId: string;
  latestVersionNum: number;
}

export interface VersionRow {
  id: string;
  formId: string;
  num: number;
  schema: string;
  createdBy: string | null;
  createdAt: string;
}

const FORM_SELECT = `
  SELECT f.id, f.process_key AS processKey, f.key, f.name, f.created_by AS createdBy, f.created_at AS createdAt,
         f.updated_at AS updatedAt, f.published_version_id AS publishedVersionId, p.num AS publishedVersionNum,
         v.id AS latestVersionId, v.num AS latestVersionNum
  FROM forms f
  JOIN form_versions v ON v.form_id = f.id AND v.num = (SELECT max(num) FROM form_versions WHERE form_id = f.id)
  LEFT JOIN form_versions p ON p.id = f.published_version_id`;

const VERSION_SELECT = `SELECT id, form_id AS formId, num, schema, created_by AS createdBy, created_at AS createdAt FROM form_versions`;

export function listFormRows(db: TenantDb, processKey: string): FormRow[] {
  return db.sqlite.query<FormRow, [string]>(`${FORM_SELECT} WHERE f.process_key = ? ORDER BY f.key`).all(processKey);
}

export function findFormRow(db: TenantDb, processKey: string, key: string): FormRow | null {
  return db.sqlite
    .query<FormRow, [string, string]>(`${FORM_SELECT} WHERE f.process_key = ? AND f.key = ?`)
    .get(processKey, key);
}

export function getFormRow(db: TenantDb, processKey: string, key: string): FormRow {
  const row = findFormRow(db, processKey, key);
  if (!row) throw new NotFoundError(`Form '${key}' not found in process '${processKey}'`);
  return row;
}

export function versionById(db: TenantDb, versionId: string): VersionRow | null {
  return db.sqlite.query<VersionRow, [string]>(`${VERSION_SELECT} WHERE id = ?`).get(versionId);
}

export function versionByNum(db: TenantDb, formId: string, num: number): VersionRow | null {
  return db.sqlite
    .query<VersionRow, [string, number]>(`${VERSION_SELECT} WHERE form_id = ? AND num = ?`)
    .get(formId, num);
}

/** Versions of a form, newest first, without their schemas. */
export function listVersionRows(db: TenantDb, formId: string): Omit<VersionRow, "schema">[] {
  return db.sqlite
    .query<Omit<VersionRow, "schema">, [string]>(
      `SELECT id, form_id AS formId, num, created_by AS createdBy, created_at AS createdAt FROM form_versions WHERE form_id = ? ORDER BY num DESC`,
    )
    .all(formId);
}

export function insertVersion(db: TenantDb, v: VersionRow): void {
  db.sqlite
    .query(`INSERT INTO form_versions (id, form_id, num, schema, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(v.id, v.formId, v.num, v.schema, v.createdBy, v.createdAt);
}
