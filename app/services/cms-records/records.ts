import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { BadRequestError, NotFoundError, type FieldError } from "../errors";
import { assertRecordWriter } from "../cms/clearance";
import { checkUnique, nowIso, readableCollection } from "../cms/access";
import { addToCount, deleteAllRecords, findRecord, recordWriter, refChecker, type RecordOut } from "../cms/store";
import { checkRecord } from "../cms/values";

export type CmsRecordsCtx = TenantCtx<"db">;

function valuesOf(body: unknown): unknown {
  if (!body || typeof body !== "object" || !("values" in body)) {
    throw new BadRequestError("Body must be {values: {...}}", [{ field: "values", message: "is required" }]);
  }
  return (body as { values: unknown }).values;
}

/** POST /a/cms/collections/{id}/records: validates against the fields and unique constraints, then inserts. */
export function createRecord({
  ctx,
  input: { collectionId, body },
}: {
  ctx: CmsRecordsCtx;
  input: { collectionId: string; body: unknown };
}): RecordOut {
  assertRecordWriter(ctx.actor);
  const c = readableCollection(ctx, collectionId);
  const sqlite = ctx.db.sqlite;
  return immediate(sqlite, () => {
    const errors: FieldError[] = [];
    const rec = checkRecord(c.fields, valuesOf(body), "values", refChecker(sqlite), errors);
    const w = recordWriter(sqlite, c.id);
    if (rec) checkUnique(c, rec, w, -1, "values", errors);
    if (!rec || errors.length) throw new BadRequestError("Record values are invalid", errors);
    const now = nowIso(ctx);
    const { seq: _seq, ...out } = w.insert(rec, now);
    addToCount(sqlite, c.id, 1, now);
    return out;
  });
}

/** PUT .../records/{recordId}: replaces the record's values as a whole (absent fields become empty). */
export function updateRecord({
  ctx,
  input: { collectionId, recordId, body },
}: {
  ctx: CmsRecordsCtx;
  input: { collectionId: string; recordId: string; body: unknown };
}): RecordOut {
  assertRecordWriter(ctx.actor);
  const c = readableCollection(ctx, collectionId);
  const sqlite = ctx.db.sqlite;
  return immediate(sqlite, () => {
    const existing = findRecord(sqlite, c.id, recordId);
    if (!existing) throw new NotFoundError(`Record ${recordId} not found`);
    const errors: FieldError[] = [];
    const rec = checkRecord(c.fields, valuesOf(body), "values", refChecker(sqlite), errors);
    const w = recordWriter(sqlite, c.id);
    if (rec) checkUnique(c, rec, w, existing.seq, "values", errors);
    if (!rec || errors.length) throw new BadRequestError("Record values are invalid", errors);
    return w.replace(existing.seq, rec, nowIso(ctx));
  });
}

/** DELETE .../records/{recordId}: permanent, no bin. */
export function deleteRecord({
  ctx,
  input: { collectionId, recordId },
}: {
  ctx: CmsRecordsCtx;
  input: { collectionId: string; recordId: string };
}): void {
  assertRecordWriter(ctx.actor);
  const c = readableCollection(ctx, collectionId);
  const sqlite = ctx.db.sqlite;
  immediate(sqlite, () => {
    const existing = findRecord(sqlite, c.id, recordId);
    if (!existing) throw new NotFoundError(`Record ${recordId} not found`);
    sqlite.query("DELETE FROM cms_record_values WHERE record_seq = ?").run(existing.seq);
    sqlite.query("DELETE FROM cms_records WHERE seq = ?").run(existing.seq);
    addToCount(sqlite, c.id, -1, nowIso(ctx));
  });
}

/** DELETE .../records: empties the collection, keeping its definition. */
export function emptyCollection({
  ctx,
  input: { collectionId },
}: {
  ctx: CmsRecordsCtx;
  input: { collectionId: string };
}): { deleted: number } {
  assertRecordWriter(ctx.actor);
  const c = readableCollection(ctx, collectionId);
  const sqlite = ctx.db.sqlite;
  return immediate(sqlite, () => {
    const deleted = deleteAllRecords(sqlite, c.id);
    sqlite.query("UPDATE cms_collections SET record_count = 0, updated_at = ? WHERE id = ?").run(nowIso(ctx), c.id);
    return { deleted };
  });
}

/** GET .../records/{recordId}. */
export function getRecord({
  ctx,
  input: { collectionId, recordId },
}: {
  ctx: CmsRecordsCtx;
  input: { collectionId: string; recordId: string };
}): RecordOut {
  const c = readableCollection(ctx, collectionId);
  const r = findRecord(ctx.db.sqlite, c.id, recordId);
  if (!r) throw new NotFoundError(`Record ${recordId} not found`);
  const { seq: _seq, ...out } = r;
  return out;
}
