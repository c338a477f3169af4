import type { TenantCtx } from "../context";
import { BadRequestError, PayloadTooLargeError } from "../errors";
import { fileStoreOf } from "./model";
import { parseMultipart } from "./multipart";
import type { TempFile } from "./file-store";

export type AttachmentsReceiveCtx = TenantCtx<"settings">;

/** An upload as it arrives over HTTP: the body is read as a stream. */
export interface IncomingUpload {
  body: ReadableStream<Uint8Array> | null;
  contentType: string | undefined;
  contentLength: string | undefined;
}

/** A complete, synced temporary file waiting to be committed (or discarded). */
export interface ReceivedFile {
  path: string;
  sha256: string;
  size: number;
  fileName: string;
  contentType: string;
  discard(): Promise<void>;
}

// Room for multipart boundaries and text fields on top of the file itself.
const MULTIPART_SLACK = 1024 * 1024;

/**
 * Streams a multipart body's `file` part into a temporary file (hashing and counting as it goes) and collects the
 * text fields. Above the maximum size: 413, and the temporary file is gone.
 */
export async function receiveMultipart(
  ctx: AttachmentsReceiveCtx,
  up: IncomingUpload,
): Promise<{ fields: Record<string, string>; file: ReceivedFile }> {
  const max = ctx.settings.maxUploadBytes;
  const declared = Number(up.contentLength);
  if (Number.isFinite(declared) && declared > max + MULTIPART_SLACK) {
    throw new PayloadTooLargeError(`The upload exceeds the maximum size of ${max} bytes`);
  }
  const store = fileStoreOf(ctx);
  let tmp: TempFile | null = null;
  let info = { fileName: "", contentType: "" };
  let done: { path: string; sha256: string; size: number } | null = null;
  try {
    const { fields, sawFile } = await parseMultipart(up.body, up.contentType, "file", {
      async begin(i) {
        info = i;
        tmp = await store.begin(max);
      },
      data: (chunk) => tmp!.write(chunk),
      async end() {
        done = await tmp!.finish();
      },
    });
    if (!sawFile || !done)
      throw new BadRequestError("A file part named 'file' is required", [{ field: "file", message: "is required" }]);
    const d: { path: string; sha256: string; size: number } = done;
    const t = tmp!;
    return { fields, file: { ...d, ...info, discard: () => t.discard() } };
  } catch (e) {
    await (tmp as TempFile | null)?.discard();
    throw e;
  }
}
