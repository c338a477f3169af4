import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { ConflictError } from "../errors";
import { parseFormSchema } from "./form-schema";
import { findFormRow, getFormRow, insertVersion, listFormRows, versionById, type FormRow } from "./store";
import { formDetail, formSummary } from "./views";

export type FormsCtx = TenantCtx<"db">;

const nowIso = (ctx: FormsCtx) => new Date(ctx.clock.now()).toISOString();

/** Detail of a form row as it is now in the database. */
export function detailOf(ctx: FormsCtx, f: FormRow) {
  const latest = versionById(ctx.db, f.latestVersionId)!;
  const published = f.publishedVersionId ? versionById(ctx.db, f.publishedVersionId) : null;
  return formDetail(f, latest, published);
}

/** POST /a/definitions/{processKey}/forms: the form and its version 1, in one transaction; 409 on a taken key. */
export function createForm({
  ctx,
  input: { processKey, ...input },
}: {
  ctx: FormsCtx;
  input: { processKey: string; key: string; name: string; schema: unknown };
}) {
  const { text } = parseFormSchema(input.schema);
  const at = nowIso(ctx);
  const row = immediate(ctx.db.sqlite, () => {
    if (findFormRow(ctx.db, processKey, input.key)) {
      throw new ConflictError(`A form with key '${input.key}' already exists in process '${processKey}'`);
    }
    const id = crypto.randomUUID();
    ctx.db.sqlite
      .query(
        `INSERT INTO forms (id, process_key, key, name, published_version_id, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)`,
      )
      .run(id, processKey, input.key, input.name, ctx.actor.userId, at, at);
    insertVersion(ctx.db, {
      id: crypto.randomUUID(),
      formId: id,
      num: 1,
      schema: text,
      createdBy: ctx.actor.userId,
      createdAt: at,
    });
    return getFormRow(ctx.db, processKey, input.key);
  });
  return detailOf(ctx, row);
}

export function listForms({ ctx, input: { processKey } }: { ctx: FormsCtx; input: { processKey: string } }) {
  return listFormRows(ctx.db, processKey).map(formSummary);
}

export function getForm({
  ctx,
  input: { processKey, key },
}: {
  ctx: FormsCtx;
  input: { processKey: string; key: string };
}) {
  return detailOf(ctx, getFormRow(ctx.db, processKey, key));
}

/** PUT: every save is a new version (the next number); the name changes only when given. Published stays where it was. */
export function saveForm({
  ctx,
  input: { processKey, key, ...input },
}: {
  ctx: FormsCtx;
  input: { processKey: string; key: string; name?: string; schema: unknown };
}) {
  const { text } = parseFormSchema(input.schema);
  const at = nowIso(ctx);
  const row = immediate(ctx.db.sqlite, () => {
    const f = getFormRow(ctx.db, processKey, key);
    insertVersion(ctx.db, {
      id: crypto.randomUUID(),
      formId: f.id,
      num: f.latestVersionNum + 1,
      schema: text,
      createdBy: ctx.actor.userId,
      createdAt: at,
    });
    ctx.db.sqlite.query(`UPDATE forms SET name = ?, updated_at = ? WHERE id = ?`).run(input.name ?? f.name, at, f.id);
    return getFormRow(ctx.db, processKey, key);
  });
  return detailOf(ctx, row);
}

/** DELETE: the form and all its versions. Open tasks that locked a version then complete without form validation. */
export function deleteForm({
  ctx,
  input: { processKey, key },
}: {
  ctx: FormsCtx;
  input: { processKey: string; key: string };
}): void {
  immediate(ctx.db.sqlite, () => {
    const f = getFormRow(ctx.db, processKey, key);
    ctx.db.sqlite.query(`DELETE FROM forms WHERE id = ?`).run(f.id);
  });
}
