import type { Database } from "bun:sqlite";
import { BadRequestError, type FieldError } from "../errors";
import type { FieldDef } from "./fields";
import { recordWriter, refChecker, type CollectionRow } from "./store";
import { checkRecord } from "./values";

/** Whether stored values must be re-checked: anything but labels and new optional fields may invalidate them. */
function needsRecheck(before: FieldDef[], after: FieldDef[]): boolean {
  const old = new Map(before.map((f) => [f.name, f]));
  const strip = (f: FieldDef) => JSON.stringify({ ...f, label: undefined });
  if (before.some((f) => !after.find((n) => n.name === f.name))) return true;
  return after.some((f) => (old.has(f.name) ? strip(old.get(f.name)!) !== strip(f) : f.required));
}

/**
 * Re-validates every record against new field definitions and rebuilds the index side table (values of removed
 * fields are dropped). Runs inside the caller's transaction; throws 400 when a record no longer fits.
 */
export function reindexCollection(sqlite: Database, c: CollectionRow, fields: FieldDef[], now: string): void {
  if (c.recordCount === 0 || !needsRecheck(c.fields, fields)) return;
  sqlite.query("DELETE FROM cms_record_values WHERE collection_id = ?").run(c.id);
  const w = recordWriter(sqlite, c.id);
  const refs = refChecker(sqlite);
  const page = sqlite.query<{ seq: number; id: string; values: string }, [string, number]>(
    'SELECT seq, id, "values" FROM cms_records WHERE collection_id = ? AND seq > ? ORDER BY seq LIMIT 2000',
  );
  const errors: FieldError[] = [];
  const names = new Set(fields.map((f) => f.name));
  let last = 0;
  for (let rows = page.all(c.id, last); rows.length; rows = page.all(c.id, last)) {
    for (const r of rows) {
      last = r.seq;
      const kept = Object.fromEntries(Object.entries(JSON.parse(r.values) as object).filter(([k]) => names.has(k)));
      const rec = checkRecord(fields, kept, `records[${r.id}]`, refs, errors);
      if (!rec) continue;
      for (const f of fields) {
        const entry = f.unique ? rec.index.find(([n]) => n === f.name) : undefined;
        if (entry && w.seqWithValue(f.name, entry[1], r.seq) !== null) {
          errors.push({ field: `records[${r.id}].${f.name}`, message: "value repeated, cannot become unique" });
        }
      }
      if (!errors.length) w.replace(r.seq, rec, now);
      if (errors.length >= 100) break;
    }
    if (errors.length >= 100) break;
  }
  if (errors.length)
    throw new BadRequestError("Existing records do not fit the new fields; nothing was changed", errors);
}
