import type { TenantCtx } from "../context";
import { BadRequestError, NotFoundError } from "../errors";
import { checkEntityType, demand, rightsOn } from "./policy";
import { withPeople } from "../people/people";
import { fileStoreOf, getAttachmentRow, rowsWhere, type AttachmentOut } from "./model";

export type AttachmentsReadCtx = TenantCtx;

function entityOf(q: { entityType?: string; entityId?: string }) {
  const entityType = checkEntityType(q.entityType);
  if (!q.entityId) throw new BadRequestError("entityId is required", [{ field: "entityId", message: "is required" }]);
  return { entityType, entityId: q.entityId };
}

/** Attachments with `uploadedByUser` (name and e-mail) beside `uploadedBy`, so lists show names. */
const named = (ctx: AttachmentsReadCtx, rows: AttachmentOut[]) =>
  withPeople(ctx.platformDb, ctx.tenant.id, rows as (AttachmentOut & Record<string, unknown>)[], ["uploadedBy"]);

/** GET /a/attachments?entityType=&entityId=: current versions only (superseded ones are left out). */
export function listAttachments({
  ctx,
  input: q,
}: {
  ctx: AttachmentsReadCtx;
  input: { entityType?: string; entityId?: string };
}) {
  const { entityType, entityId } = entityOf(q);
  demand(rightsOn(ctx, entityType, entityId).canPreview, "preview");
  return named(
    ctx,
    rowsWhere(
      ctx.db.sqlite,
      "entity_type = ? AND entity_id = ? AND status = 'CURRENT' ORDER BY uploaded_at, id",
      entityType,
      entityId,
    ),
  );
}

/**
 * GET /a/attachments/capabilities: what the current actor may do on the entity (ad-hoc upload route). An entity the
 * actor cannot reach, or that does not exist, answers all false: this route never tells which of the two it is.
 */
export function attachmentCapabilities({
  ctx,
  input,
}: {
  ctx: AttachmentsReadCtx;
  input: { entityType?: string; entityId?: string };
}): { canUpload: boolean; canPreview: boolean; canReplace: boolean } {
  const { entityType, entityId } = entityOf(input);
  try {
    const r = rightsOn(ctx, entityType, entityId);
    return { canUpload: r.canUpload, canPreview: r.canPreview, canReplace: r.canReplace };
  } catch (e) {
    if (e instanceof NotFoundError) return { canUpload: false, canPreview: false, canReplace: false };
    throw e;
  }
}

/** GET /a/attachments/{id}: metadata of any version, for whoever may preview the entity. */
export function getAttachment({
  ctx,
  input: { id },
}: {
  ctx: AttachmentsReadCtx;
  input: { id: string };
}): AttachmentOut {
  const a = getAttachmentRow(ctx.db.sqlite, id);
  demand(rightsOn(ctx, a.entityType, a.entityId).canPreview, "preview");
  return a;
}

/** GET /a/attachments/{id}/history: the superseded versions of this attachment, newest first. */
export function attachmentHistory({ ctx, input: { id } }: { ctx: AttachmentsReadCtx; input: { id: string } }) {
  const a = getAttachment({ ctx, input: { id } });
  return named(ctx, rowsWhere(ctx.db.sqlite, "root_id = ? AND status = 'SUPERSEDED' ORDER BY version DESC", a.rootId));
}

/**
 * Types a browser only displays (no script, no active content): raster images, PDF, plain text. Only these are ever
 * served inline; SVG and HTML are documents that could run the uploader's script on the service's origin.
 */
const PASSIVE = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/avif",
  "image/bmp",
  "application/pdf",
  "text/plain",
]);
export const isPassiveType = (contentType: string) =>
  PASSIVE.has((contentType.split(";")[0] ?? "").trim().toLowerCase());

/**
 * The file behind an attachment the caller may preview, with the headers of a download: `inline` is honoured for
 * passive types only; anything else is an `attachment` under `Content-Security-Policy: sandbox`, so even a browser
 * that renders it gives it no script and no origin.
 */
export function openAttachment({
  ctx,
  input: { id, inline = false },
}: {
  ctx: AttachmentsReadCtx;
  input: { id: string; inline?: boolean };
}) {
  const a = getAttachment({ ctx, input: { id } });
  const file = Bun.file(fileStoreOf(ctx).pathOf(a.sha256));
  const ascii = a.fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const passive = isPassiveType(a.contentType);
  const disposition = `${inline && passive ? "inline" : "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(a.fileName)}`;
  return {
    file,
    headers: {
      ...(passive ? {} : { "Content-Security-Policy": "sandbox" }),
      "Content-Type": a.contentType,
      "Content-Length": String(a.size),
      "Content-Disposition": disposition,
      "X-Content-Type-Options": "nosniff",
      ETag: `"${a.sha256}"`,
    },
  };
}
