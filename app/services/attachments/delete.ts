import { immediate } from "../../../db/connection";
import type { TenantCtx } from "../context";
import { ForbiddenError } from "../errors";
import { demand, rightsOn } from "./policy";
import { fileStoreOf, getAttachmentRow, rowsWhere } from "./model";

export type AttachmentsDeleteCtx = TenantCtx;

/**
 * DELETE /a/attachments/{id}: never on PROCESS_INSTANCE (administrators and the system included); other types
 * by their own rules. Removes every version; a stored file goes once no row refers to it, checked in the same
 * transaction so a concurrent upload of the same content keeps its file.
 */
export function deleteAttachment({ ctx, input: { id } }: { ctx: AttachmentsDeleteCtx; input: { id: string } }): void {
  const a = getAttachmentRow(ctx.db.sqlite, id);
  if (a.entityType === "PROCESS_INSTANCE")
    throw new ForbiddenError("Process instance attachments cannot be deleted; replace them instead");
  demand(rightsOn(ctx, a.entityType, a.entityId).canDelete, "delete");
  const store = fileStoreOf(ctx);
  const sqlite = ctx.db.sqlite;
  immediate(sqlite, () => {
    const versions = rowsWhere(sqlite, "root_id = ?", a.rootId);
    sqlite.query("DELETE FROM attachments WHERE root_id = ?").run(a.rootId);
    const used = sqlite.query<{ one: number }, [string]>("SELECT 1 AS one FROM attachments WHERE sha256 = ? LIMIT 1");
    for (const sha of new Set(versions.map((v) => v.sha256))) if (!used.get(sha)) store.remove(sha);
  });
}
