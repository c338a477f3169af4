import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { BadRequestError, ConflictError, type FieldError } from "../errors";
import {
  assertCanClassify,
  assertCollectionWriter,
  CONFIDENTIALITY_LEVELS,
  clearanceOf,
  levelsUpTo,
  type Confidentiality,
} from "../cms/clearance";
import { nowIso, readableCollection } from "../cms/access";
import { parseFieldDefs, type FieldDef } from "../cms/fields";
import { allCollections, deleteAllRecords, findCollection, getCollection, type CollectionRow } from "../cms/store";
import { reindexCollection } from "../cms/reindex";

export type CmsCollectionsCtx = TenantCtx<"db">;

export interface CollectionOut {
  id: string;
  name: string;
  fields: FieldDef[];
  confidentiality: Confidentiality;
  recordCount: number;
  createdAt: string;
  updatedAt: string;
}

const out = (c: CollectionRow): CollectionOut => ({
  id: c.id,
  name: c.name,
  fields: c.fields,
  confidentiality: c.confidentiality,
  recordCount: c.recordCount,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});

function checkName(name: unknown, errors: FieldError[]): string {
  if (typeof name !== "string" || !name.trim() || name.length > 200) {
    errors.push({ field: "name", message: "must be a non-empty string of at most 200 characters" });
    return "";
  }
  return name.trim();
}

function checkLevel(level: unknown, errors: FieldError[]): Confidentiality {
  if (!CONFIDENTIALITY_LEVELS.includes(level as Confidentiality)) {
    errors.push({ field: "confidentiality", message: `must be one of ${CONFIDENTIALITY_LEVELS.join(", ")}` });
  }
  return level as Confidentiality;
}

/** Parses fields and checks that each reference names an existing collection (or the collection itself). */
function checkFields(ctx: CmsCollectionsCtx, raw: unknown, selfId: string, errors: FieldError[]): FieldDef[] {
  const { fields, errors: fe } = parseFieldDefs(raw);
  errors.push(...fe);
  // Walk the raw list so each error carries the index the client sent.
  (Array.isArray(raw) ? raw : []).forEach((d: { type?: unknown; collectionId?: unknown } | null, i) => {
    const target = d?.type === "reference" && typeof d.collectionId === "string" ? d.collectionId : null;
    if (target && target !== selfId && !findCollection(ctx.db.sqlite, target)) {
      errors.push({ field: `fields[${i}].collectionId`, message: `no collection ${target}` });
    }
  });
  return fields;
}

function assertNameFree(ctx: CmsCollectionsCtx, name: string, exceptId: string): void {
  const other = ctx.db.sqlite
    .query<{ id: string }, [string]>("SELECT id FROM cms_collections WHERE name = ?")
    .get(name);
  if (other && other.id !== exceptId) throw new ConflictError(`A collection named '${name}' already exists`);
}

export interface CollectionInput {
  name?: unknown;
  fields?: unknown;
  confidentiality?: unknown;
}

/** POST /a/cms/collections. */
export function createCollection({ ctx, input }: { ctx: CmsCollectionsCtx; input: CollectionInput }): CollectionOut {
  assertCollectionWriter(ctx.actor);
  const errors: FieldError[] = [];
  const id = crypto.randomUUID();
  const name = checkName(input.name, errors);
  const level = checkLevel(input.confidentiality, errors);
  const fields = checkFields(ctx, input.fields, id, errors);
  if (errors.length) throw new BadRequestError("Invalid collection", errors);
  assertCanClassify(ctx.actor, level);
  return immediate(ctx.db.sqlite, () => {
    assertNameFree(ctx, name, id);
    const now = nowIso(ctx);
    ctx.db.sqlite
      .query(
        "INSERT INTO cms_collections (id, name, fields, confidentiality, record_count, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, 0, ?, ?, ?)",
      )
      .run(id, name, JSON.stringify(fields), level, ctx.actor.userId, now, now);
    return out(getCollection(ctx.db.sqlite, id));
  });
}

/** GET /a/cms/collections: only the collections at or below the caller's level. */
export function listCollections({ ctx }: { ctx: CmsCollectionsCtx; input?: undefined }): CollectionOut[] {
  return allCollections(ctx.db.sqlite, levelsUpTo(clearanceOf(ctx.actor))).map(out);
}

/** GET /a/cms/collections/{id}: 403 above the caller's level. */
export function getCollectionDetail({
  ctx,
  input: { id },
}: {
  ctx: CmsCollectionsCtx;
  input: { id: string };
}): CollectionOut {
  return out(readableCollection(ctx, id));
}

/**
 * PUT /a/cms/collections/{id}: any of name, fields, confidentiality. A field change that could invalidate stored
 * values re-checks every record in the same transaction (400 naming the first offending records, nothing changed).
 */
export function updateCollection({
  ctx,
  input: { id, ...input },
}: {
  ctx: CmsCollectionsCtx;
  input: { id: string } & CollectionInput;
}): CollectionOut {
  assertCollectionWriter(ctx.actor);
  const current = readableCollection(ctx, id);
  const errors: FieldError[] = [];
  const name = input.name === undefined ? current.name : checkName(input.name, errors);
  const level =
    input.confidentiality === undefined ? current.confidentiality : checkLevel(input.confidentiality, errors);
  const fields = input.fields === undefined ? current.fields : checkFields(ctx, input.fields, id, errors);
  if (errors.length) throw new BadRequestError("Invalid collection", errors);
  assertCanClassify(ctx.actor, level);
  return immediate(ctx.db.sqlite, () => {
    assertNameFree(ctx, name, id);
    const now = nowIso(ctx);
    if (input.fields !== undefined) reindexCollection(ctx.db.sqlite, current, fields, now);
    ctx.db.sqlite
      .query("UPDATE cms_collections SET name = ?, fields = ?, confidentiality = ?, updated_at = ? WHERE id = ?")
      .run(name, JSON.stringify(fields), level, now, id);
    return out(getCollection(ctx.db.sqlite, id));
  });
}

/** DELETE /a/cms/collections/{id}: permanent, records included; refused while another collection references it. */
export function deleteCollection({ ctx, input: { id } }: { ctx: CmsCollectionsCtx; input: { id: string } }): void {
  assertCollectionWriter(ctx.actor);
  const c = readableCollection(ctx, id);
  immediate(ctx.db.sqlite, () => {
    const referencing = allCollections(ctx.db.sqlite, CONFIDENTIALITY_LEVELS).filter(
      (o) => o.id !== id && o.fields.some((f) => f.type === "reference" && f.collectionId === id),
    );
    if (referencing.length) {
      throw new ConflictError(`Collection is referenced by: ${referencing.map((o) => o.name).join(", ")}`);
    }
    deleteAllRecords(ctx.db.sqlite, c.id);
    ctx.db.sqlite.query("DELETE FROM cms_collections WHERE id = ?").run(id);
  });
}
