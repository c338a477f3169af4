import type { TenantCtx } from "../context";
import { checkEntityType, type EntityType, type UploadOrigin } from "./policy";
import { fileStoreOf, type AttachmentOut } from "./model";
import { checkDocumentType, storeNew } from "./upload";
import type { ReceivedFile } from "./receive";

export type AttachmentsAttachCtx = TenantCtx;

/**
 * Attaches a file given as a stream, for callers other than HTTP (form submissions, process steps, agent tools
 * running as the system). Same size limit, policy and atomic write as POST /a/attachments.
 */
export async function attachStream(
  ctx: AttachmentsAttachCtx,
  input: {
    entityType: EntityType;
    entityId: string;
    fileName: string;
    contentType: string;
    documentTypeId?: string | null;
    data: ReadableStream<Uint8Array>;
  },
  origin: UploadOrigin,
): Promise<AttachmentOut> {
  const tmp = await fileStoreOf(ctx).begin(ctx.settings.maxUploadBytes);
  let received: ReceivedFile;
  try {
    const reader = input.data.getReader();
    for (let r = await reader.read(); !r.done; r = await reader.read()) await tmp.write(r.value);
    const done = await tmp.finish();
    received = { ...done, fileName: input.fileName, contentType: input.contentType, discard: () => tmp.discard() };
  } catch (e) {
    await tmp.discard();
    throw e;
  }
  try {
    const meta = {
      entityType: checkEntityType(input.entityType),
      entityId: input.entityId,
      documentTypeId: checkDocumentType(ctx, input.documentTypeId ?? undefined),
    };
    return await storeNew(ctx, meta, received, origin);
  } catch (e) {
    await received.discard();
    throw e;
  }
}
