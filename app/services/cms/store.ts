// The CMS core shared by the cms-collections and cms-records operations (both route folders work on the same tables).
import type { Database } from "bun:sqlite";
import { NotFoundError } from "../errors";
import { readFieldDefs, type FieldDef } from "./fields";
import type { Confidentiality } from "./clearance";
import type { CheckedRecord, IndexValue, RefChecker } from "./values";

/** Raw SQL over the CMS tables: the hot paths of bulk loads and queries use cached prepared statements. */

export interface CollectionRow {
  id: string;
  name: string;
  fields: FieldDef[];
  confidentiality: Confidentiality;
  recordCount: number;
  createdBy: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface RecordOut {
  id: string;
  values: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

interface RawCollection {
  id: string;
  name: string;
  fields: string;
  confidentiality: Confidentiality;
  record_count: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

const toCollection = (r: RawCollection): CollectionRow => ({
  id: r.id,
  name: r.name,
  fields: readFieldDefs(r.fields),
  confidentiality: r.confidentiality,
  recordCount: r.record_count,
  createdBy: r.created_by,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function findCollection(sqlite: Database, id: string): CollectionRow | null {
  const r = sqlite.query<RawCollection, [string]>("SELECT * FROM cms_collections WHERE id = ?").get(id);
  return r ? toCollection(r) : null;
}

/** A collection by its id or, failing that, its name (agents name collections as people do). */
export function findCollectionByIdOrName(sqlite: Database, idOrName: string): CollectionRow | null {
  const byId = findCollection(sqlite, idOrName);
  if (byId) return byId;
  const r = sqlite.query<RawCollection, [string]>("SELECT * FROM cms_collections WHERE name = ?").get(idOrName);
  return r ? toCollection(r) : null;
}

export function getCollection(sqlite: Database, id: string): CollectionRow {
  const c = findCollection(sqlite, id);
  if (!c) throw new NotFoundError(`Collection ${id} not found`);
  return c;
}

export function allCollections(sqlite: Database, levels: readonly Confidentiality[]): CollectionRow[] {
  const marks = levels.map(() => "?").join(",");
  return sqlite
    .query<RawCollection, string[]>(`SELECT * FROM cms_collections WHERE confidentiality IN (${marks}) ORDER BY name`)
    .all(...levels)
    .map(toCollection);
}

export const refChecker = (sqlite: Database): RefChecker => {
  const q = sqlite.query<{ one: number }, [string, string]>(
    "SELECT 1 AS one FROM cms_records WHERE id = ? AND collection_id = ?",
  );
  return (collectionId, recordId) => q.get(recordId, collectionId) !== null;
};

interface RawRecord {
  seq: number;
  id: string;
  values: string;
  created_at: string;
  updated_at: string;
}
export const toRecord = (r: RawRecord): RecordOut => ({
  id: r.id,
  values: JSON.parse(r.values) as Record<string, unknown>,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export function findRecord(
  sqlite: Database,
  collectionId: string,
  recordId: string,
): (RecordOut & { seq: number }) | null {
  const r = sqlite
    .query<RawRecord, [string, string]>(
      'SELECT seq, id, "values", created_at, updated_at FROM cms_records WHERE id = ? AND collection_id = ?',
    )
    .get(recordId, collectionId);
  return r ? { ...toRecord(r), seq: r.seq } : null;
}

/** Statements of one write transaction; build once per operation, reuse for every record. */
export function recordWriter(sqlite: Database, collectionId: string) {
  const ins = sqlite.query(
    'INSERT INTO cms_records (id, collection_id, "values", created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
  );
  const upd = sqlite.query('UPDATE cms_records SET "values" = ?, updated_at = ? WHERE seq = ?');
  const insV = sqlite.query("INSERT INTO cms_record_values (collection_id, field, v, record_seq) VALUES (?, ?, ?, ?)");
  const delV = sqlite.query("DELETE FROM cms_record_values WHERE record_seq = ?");
  const bySeq = sqlite.query<{ id: string; created_at: string }, [number]>(
    "SELECT id, created_at FROM cms_records WHERE seq = ?",
  );
  const byValue = sqlite.query<{ record_seq: number }, [string, string, IndexValue, number]>(
    "SELECT record_seq FROM cms_record_values WHERE collection_id = ? AND field = ? AND v = ? AND record_seq != ? LIMIT 1",
  );
  const writeIndex = (seq: number, rec: CheckedRecord) => {
    for (const [field, v] of rec.index) insV.run(collectionId, field, v, seq);
  };
  return {
    insert(rec: CheckedRecord, now: string): RecordOut & { seq: number } {
      const id = crypto.randomUUID();
      const seq = Number(ins.run(id, collectionId, JSON.stringify(rec.values), now, now).lastInsertRowid);
      writeIndex(seq, rec);
      return { id, seq, values: rec.values, createdAt: now, updatedAt: now };
    },
    replace(seq: number, rec: CheckedRecord, now: string): RecordOut {
      upd.run(JSON.stringify(rec.values), now, seq);
      delV.run(seq);
      writeIndex(seq, rec);
      const r = bySeq.get(seq)!;
      return { id: r.id, values: rec.values, createdAt: r.created_at, updatedAt: now };
    },
    /** A record (other than `exceptSeq`) holding `v` in `field`, or null. */
    seqWithValue(field: string, v: IndexValue, exceptSeq = -1): number | null {
      return byValue.get(collectionId, field, v, exceptSeq)?.record_seq ?? null;
    },
  };
}

export function addToCount(sqlite: Database, collectionId: string, delta: number, now: string): void {
  sqlite
    .query("UPDATE cms_collections SET record_count = record_count + ?, updated_at = ? WHERE id = ?")
    .run(delta, now, collectionId);
}

/** Removes every record of a collection with its index rows; returns how many records went. */
export function deleteAllRecords(sqlite: Database, collectionId: string): number {
  sqlite.query("DELETE FROM cms_record_values WHERE collection_id = ?").run(collectionId);
  return sqlite.query("DELETE FROM cms_records WHERE collection_id = ?").run(collectionId).changes;
}
