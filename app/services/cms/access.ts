import type { TenantCtx } from "../context";
import type { FieldError } from "../errors";
import { assertCanRead, clearanceOf } from "./clearance";
import { getCollection, type CollectionRow, type recordWriter } from "./store";
import type { CheckedRecord } from "./values";

export type CmsAccessCtx = TenantCtx<"db">;

/** The collection, if the caller's clearance reaches it (404 when absent, 403 when above the level). */
export function readableCollection(ctx: CmsAccessCtx, id: string): CollectionRow {
  const c = getCollection(ctx.db.sqlite, id);
  assertCanRead(c.confidentiality, clearanceOf(ctx.actor));
  return c;
}

/** Adds an error for each unique field whose value another record already holds. */
export function checkUnique(
  c: CollectionRow,
  rec: CheckedRecord,
  w: ReturnType<typeof recordWriter>,
  exceptSeq: number,
  prefix: string,
  errors: FieldError[],
): void {
  for (const f of c.fields) {
    if (!f.unique) continue;
    const entry = rec.index.find(([name]) => name === f.name);
    if (entry && w.seqWithValue(f.name, entry[1], exceptSeq) !== null) {
      errors.push({ field: `${prefix}.${f.name}`, message: "value already used by another record (unique field)" });
    }
  }
}

export const nowIso = (ctx: CmsAccessCtx) => new Date(ctx.clock.now()).toISOString();
