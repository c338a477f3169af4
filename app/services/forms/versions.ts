import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { NotFoundError } from "../errors";
import { detailOf } from "./manage";
import { getFormRow, listVersionRows, versionById, versionByNum } from "./store";
import { versionView, versionWithSchema } from "./views";

export type FormsVersionsCtx = TenantCtx<"db">;

export function listVersions({
  ctx,
  input: { processKey, key },
}: {
  ctx: FormsVersionsCtx;
  input: { processKey: string; key: string };
}) {
  const f = getFormRow(ctx.db, processKey, key);
  return listVersionRows(ctx.db, f.id).map((v) => versionView(v, f.publishedVersionId));
}

export function getVersionByNum({
  ctx,
  input: { processKey, key, num },
}: {
  ctx: FormsVersionsCtx;
  input: { processKey: string; key: string; num: number };
}) {
  const f = getFormRow(ctx.db, processKey, key);
  const v = versionByNum(ctx.db, f.id, num);
  if (!v) throw new NotFoundError(`Form '${key}' has no version ${num}`);
  return versionWithSchema(v, f.publishedVersionId);
}

/** By UUID, still through the form's path: a version id of another form answers 404. */
export function getVersionById({
  ctx,
  input: { processKey, key, versionId },
}: {
  ctx: FormsVersionsCtx;
  input: { processKey: string; key: string; versionId: string };
}) {
  const f = getFormRow(ctx.db, processKey, key);
  const v = versionById(ctx.db, versionId);
  if (!v || v.formId !== f.id) throw new NotFoundError(`Form '${key}' has no version ${versionId}`);
  return versionWithSchema(v, f.publishedVersionId);
}

/** POST .../publish: tasks created from now on lock this version; absent versionId publishes the latest. */
export function publishForm({
  ctx,
  input: { processKey, key, ...input },
}: {
  ctx: FormsVersionsCtx;
  input: { processKey: string; key: string; versionId?: string };
}) {
  const row = immediate(ctx.db.sqlite, () => {
    const f = getFormRow(ctx.db, processKey, key);
    const versionId = input.versionId ?? f.latestVersionId;
    const v = versionById(ctx.db, versionId);
    if (!v || v.formId !== f.id) throw new NotFoundError(`Form '${key}' has no version ${versionId}`);
    ctx.db.sqlite.query(`UPDATE forms SET published_version_id = ? WHERE id = ?`).run(v.id, f.id);
    return getFormRow(ctx.db, processKey, key);
  });
  return detailOf(ctx, row);
}
