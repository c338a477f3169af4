import type { Database } from "bun:sqlite";
import type { TenantCtx } from "../context";
import { NotFoundError } from "../errors";
import type { EntityType } from "./policy";
import { TenantFileStore } from "./file-store";

export type AttachmentsModelCtx = TenantCtx<"settings">;

export interface AttachmentOut {
  id: string;
  rootId: string;
  entityType: EntityType;
  entityId: string;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  version: number;
  documentTypeId: string | null;
  status: "CURRENT" | "SUPERSEDED";
  supersededBy: string | null;
  supersededAt: string | null;
  uploadedBy: string | null;
  uploadedAt: string;
}

interface Raw {
  id: string;
  root_id: string;
  entity_type: EntityType;
  entity_id: string;
  file_name: string;
  content_type: string;
  size: number;
  sha256: string;
  version: number;
  document_type_id: string | null;
  status: "CURRENT" | "SUPERSEDED";
  superseded_by: string | null;
  superseded_at: string | null;
  uploaded_by: string | null;
  uploaded_at: string;
}

export const toOut = (r: Raw): AttachmentOut => ({
  id: r.id,
  rootId: r.root_id,
  entityType: r.entity_type,
  entityId: r.entity_id,
  fileName: r.file_name,
  contentType: r.content_type,
  size: r.size,
  sha256: r.sha256,
  version: r.version,
  documentTypeId: r.document_type_id,
  status: r.status,
  supersededBy: r.superseded_by,
  supersededAt: r.superseded_at,
  uploadedBy: r.uploaded_by,
  uploadedAt: r.uploaded_at,
});

/** The attachment row in the caller's own tenant database; any other id is simply absent (404). */
export function getAttachmentRow(sqlite: Database, id: string): AttachmentOut {
  const r = sqlite.query<Raw, [string]>("SELECT * FROM attachments WHERE id = ?").get(id);
  if (!r) throw new NotFoundError(`Attachment ${id} not found`);
  return toOut(r);
}

export function rowsWhere(sqlite: Database, where: string, ...params: string[]): AttachmentOut[] {
  return sqlite
    .query<Raw, string[]>(`SELECT * FROM attachments WHERE ${where}`)
    .all(...params)
    .map(toOut);
}

export function insertRow(sqlite: Database, a: AttachmentOut): void {
  sqlite
    .query(
      `INSERT INTO attachments (id, root_id, entity_type, entity_id, file_name, content_type, size, sha256, version,
        document_type_id, status, superseded_by, superseded_at, uploaded_by, uploaded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      a.id,
      a.rootId,
      a.entityType,
      a.entityId,
      a.fileName,
      a.contentType,
      a.size,
      a.sha256,
      a.version,
      a.documentTypeId,
      a.status,
      a.supersededBy,
      a.supersededAt,
      a.uploadedBy,
      a.uploadedAt,
    );
}

export const fileStoreOf = (ctx: AttachmentsModelCtx) => new TenantFileStore(ctx.settings.dataDir, ctx.tenant.id);
export const nowIso = (ctx: AttachmentsModelCtx) => new Date(ctx.clock.now()).toISOString();

/** A file name safe to store and to echo in Content-Disposition: no path, no control characters. */
export function cleanFileName(name: string | null | undefined): string {
  const base = (name ?? "").split(/[\\/]/).pop() ?? "";
  // eslint-disable-next-line no-control-regex
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 255);
  return clean || "file";
}
