import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { BadRequestError, ConflictError } from "../errors";
import { findDocumentType } from "../document-types/document-types";
import { checkEntityType, demand, rightsOn, type EntityType, type UploadOrigin } from "./policy";
import { cleanFileName, fileStoreOf, getAttachmentRow, insertRow, nowIso, type AttachmentOut } from "./model";
import { receiveMultipart, type IncomingUpload, type ReceivedFile } from "./receive";
import { admitted } from "../admission";

export type AttachmentsUploadCtx = TenantCtx;

export function checkDocumentType(ctx: AttachmentsUploadCtx, id: string | undefined): string | null {
  if (id === undefined || id === "") return null;
  const t = findDocumentType(ctx, id);
  if (t?.status !== "ACTIVE")
    throw new BadRequestError(`No active document type ${id}`, [
      { field: "documentTypeId", message: "unknown or inactive document type" },
    ]);
  return id;
}

function checkEntityId(v: string | undefined): string {
  if (!v || v.length > 200)
    throw new BadRequestError("entityId is required (at most 200 characters)", [
      { field: "entityId", message: "is required" },
    ]);
  return v;
}

/** Moves the file into place durably (off the event loop), then writes the row(s) in one transaction. */
async function commit(
  ctx: AttachmentsUploadCtx,
  file: ReceivedFile,
  write: () => AttachmentOut,
): Promise<AttachmentOut> {
  const placed = await fileStoreOf(ctx).place(file);
  try {
    return immediate(ctx.db.sqlite, write);
  } finally {
    placed.release();
  }
}

export interface NewAttachment {
  entityType: EntityType;
  entityId: string;
  documentTypeId: string | null;
}

/** Stores a received file as version 1 of a new attachment, after the policy check for `origin`. */
export async function storeNew(
  ctx: AttachmentsUploadCtx,
  meta: NewAttachment,
  file: ReceivedFile,
  origin: UploadOrigin,
): Promise<AttachmentOut> {
  try {
    demand(rightsOn(ctx, meta.entityType, meta.entityId, origin).canUpload, "upload");
    const id = crypto.randomUUID();
    const row: AttachmentOut = {
      id,
      rootId: id,
      entityType: meta.entityType,
      entityId: meta.entityId,
      fileName: cleanFileName(file.fileName),
      contentType: file.contentType || "application/octet-stream",
      size: file.size,
      sha256: file.sha256,
      version: 1,
      documentTypeId: meta.documentTypeId,
      status: "CURRENT",
      supersededBy: null,
      supersededAt: null,
      uploadedBy: ctx.actor.userId,
      uploadedAt: nowIso(ctx),
    };
    return await commit(ctx, file, () => {
      insertRow(ctx.db.sqlite, row);
      return row;
    });
  } catch (e) {
    await file.discard();
    throw e;
  }
}

export const uploadAttachment = admitted(uploadAttachmentNow);
/** POST /a/attachments (multipart: file, entityType, entityId, documentTypeId?). */
async function uploadAttachmentNow({
  ctx,
  input: up,
}: {
  ctx: AttachmentsUploadCtx;
  input: IncomingUpload;
}): Promise<AttachmentOut> {
  const { fields, file } = await receiveMultipart(ctx, up);
  let meta: NewAttachment;
  try {
    meta = {
      entityType: checkEntityType(fields.entityType),
      entityId: checkEntityId(fields.entityId),
      documentTypeId: checkDocumentType(ctx, fields.documentTypeId),
    };
  } catch (e) {
    await file.discard();
    throw e;
  }
  return storeNew(ctx, meta, file, "AD_HOC");
}

export const replaceAttachment = admitted(replaceAttachmentNow);
/**
 * POST /a/attachments/{id}/replace (multipart: file, documentTypeId?): the new file becomes the next version,
 * the previous one is marked SUPERSEDED and leaves the listings (it stays in the history).
 */
async function replaceAttachmentNow({
  ctx,
  input: { id, up },
}: {
  ctx: AttachmentsUploadCtx;
  input: { id: string; up: IncomingUpload };
}): Promise<AttachmentOut> {
  const prev = getAttachmentRow(ctx.db.sqlite, id);
  demand(rightsOn(ctx, prev.entityType, prev.entityId).canReplace, "replace");
  if (prev.status !== "CURRENT") throw new ConflictError("Only the current version of an attachment can be replaced");
  const { fields, file } = await receiveMultipart(ctx, up);
  try {
    const documentTypeId =
      fields.documentTypeId !== undefined ? checkDocumentType(ctx, fields.documentTypeId) : prev.documentTypeId;
    const now = nowIso(ctx);
    return await commit(ctx, file, () => {
      // Re-read inside the transaction: a concurrent replace may have won while the file streamed in.
      if (getAttachmentRow(ctx.db.sqlite, id).status !== "CURRENT")
        throw new ConflictError("The attachment was replaced meanwhile");
      const next: AttachmentOut = {
        ...prev,
        id: crypto.randomUUID(),
        fileName: cleanFileName(file.fileName),
        contentType: file.contentType || "application/octet-stream",
        size: file.size,
        sha256: file.sha256,
        version: prev.version + 1,
        documentTypeId,
        uploadedBy: ctx.actor.userId,
        uploadedAt: now,
      };
      insertRow(ctx.db.sqlite, next);
      ctx.db.sqlite
        .query("UPDATE attachments SET status = 'SUPERSEDED', superseded_by = ?, superseded_at = ? WHERE id = ?")
        .run(next.id, now, id);
      return next;
    });
  } catch (e) {
    await file.discard();
    throw e;
  }
}
