import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { BadRequestError, type FieldError } from "../errors";
import { assertRecordWriter } from "../cms/clearance";
import { checkUnique, nowIso, readableCollection } from "../cms/access";
import { KEYABLE_TYPES } from "../cms/fields";
import { addToCount, recordWriter, refChecker } from "../cms/store";
import { checkRecord } from "../cms/values";

export type BulkLoadCtx = TenantCtx<"db">;

export const MAX_BULK_RECORDS = 20_000;
export const MAX_KEY_FIELD_LENGTH = 100;
/** svc_cms_records_load's limit per call (spec, Limits: MCP records load). */
export const MAX_MCP_LOAD_RECORDS = 5_000;

export interface BulkInput {
  records?: unknown;
  keyField?: unknown;
  /** A caller's lower limit (MCP: MAX_MCP_LOAD_RECORDS); the REST route's is MAX_BULK_RECORDS. */
  maxRecords?: number;
}
export interface BulkResult {
  inserted: number;
  updated: number;
  total: number;
}

/** Checks the request's shape and limits before anything is read from the collection. */
function checkShape(input: BulkInput): { records: unknown[]; keyField: string | null } {
  if (!Array.isArray(input.records)) {
    throw new BadRequestError("records must be an array", [{ field: "records", message: "must be an array" }]);
  }
  const max = Math.min(input.maxRecords ?? MAX_BULK_RECORDS, MAX_BULK_RECORDS);
  if (input.records.length > max) {
    throw new BadRequestError(`A bulk load takes at most ${max} records (got ${input.records.length})`, [
      { field: "records", message: `at most ${max} records` },
    ]);
  }
  const k = input.keyField;
  if (k === undefined || k === null) return { records: input.records, keyField: null };
  if (typeof k !== "string" || k.length === 0 || k.length > MAX_KEY_FIELD_LENGTH) {
    throw new BadRequestError(`keyField must be a field name of at most ${MAX_KEY_FIELD_LENGTH} characters`, [
      { field: "keyField", message: `must be a non-empty string of at most ${MAX_KEY_FIELD_LENGTH} characters` },
    ]);
  }
  return { records: input.records, keyField: k };
}

/**
 * POST .../records/bulk: one transaction for the whole load. Every record is validated; any invalid record
 * (named by its index, e.g. `records[17].price`) refuses the whole load and nothing is written. With keyField,
 * a record whose key value already exists updates that record, so reloading the same data is idempotent;
 * a key repeated inside one load is refused as ambiguous.
 */
export function bulkLoad({
  ctx,
  input: { collectionId, ...input },
}: {
  ctx: BulkLoadCtx;
  input: { collectionId: string } & BulkInput;
}): BulkResult {
  assertRecordWriter(ctx.actor);
  const { records, keyField } = checkShape(input);
  const c = readableCollection(ctx, collectionId);
  if (keyField !== null) {
    const f = c.fields.find((x) => x.name === keyField);
    if (!f)
      throw new BadRequestError(`keyField '${keyField}' is not a field of this collection`, [
        { field: "keyField", message: "unknown field" },
      ]);
    if (!KEYABLE_TYPES.has(f.type))
      throw new BadRequestError(`A ${f.type} field cannot serve as keyField`, [
        { field: "keyField", message: "not a scalar field" },
      ]);
  }
  const sqlite = ctx.db.sqlite;
  return immediate(sqlite, () => {
    const errors: FieldError[] = [];
    const refs = refChecker(sqlite);
    const w = recordWriter(sqlite, c.id);
    const now = nowIso(ctx);
    const seenKeys = new Set<string | number>();
    let inserted = 0;
    let updated = 0;
    records.forEach((raw, i) => {
      const prefix = `records[${i}]`;
      const rec = checkRecord(c.fields, raw, prefix, refs, errors);
      if (!rec) return;
      let existing: number | null = null;
      if (keyField !== null) {
        const key = rec.index.find(([name]) => name === keyField)?.[1];
        if (key === undefined)
          return void errors.push({ field: `${prefix}.${keyField}`, message: "the key field needs a value" });
        if (seenKeys.has(key))
          return void errors.push({ field: `${prefix}.${keyField}`, message: `key ${key} appears twice in this load` });
        seenKeys.add(key);
        existing = w.seqWithValue(keyField, key);
      }
      const before = errors.length;
      checkUnique(c, rec, w, existing ?? -1, prefix, errors);
      // Once the load is known to fail, stop writing but keep validating so every problem is reported.
      if (errors.length !== before || errors.length > 0) return;
      if (existing !== null) {
        w.replace(existing, rec, now);
        updated++;
      } else {
        w.insert(rec, now);
        inserted++;
      }
    });
    if (errors.length) {
      const shown = errors.slice(0, 100);
      throw new BadRequestError(`Bulk load refused: ${errors.length} invalid value(s), nothing was written`, shown);
    }
    addToCount(sqlite, c.id, inserted, now);
    return { inserted, updated, total: inserted + updated };
  });
}
