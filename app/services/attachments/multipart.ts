import { BadRequestError } from "../errors";

/** A file part as it streams by: headers first, then `data` is called for each chunk, then `end`. */
export interface FileSink {
  begin(info: { fieldName: string; fileName: string; contentType: string }): Promise<void>;
  data(chunk: Uint8Array): Promise<void>;
  end(): Promise<void>;
}

const MAX_HEADER_BYTES = 16 * 1024;
const MAX_TEXT_BYTES = 64 * 1024;
const CRLF2 = Buffer.from("\r\n\r\n");

export function boundaryOf(contentType: string | undefined): string {
  const m = /^multipart\/form-data\s*;.*?boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  if (!m) throw new BadRequestError("Expected a multipart/form-data body with a boundary");
  return m[1] ?? m[2];
}

function parseDisposition(headers: string): { name: string; fileName: string | null; contentType: string } {
  const lines = headers.split("\r\n");
  const get = (h: string) =>
    lines
      .find((l) => l.toLowerCase().startsWith(`${h}:`))
      ?.slice(h.length + 1)
      .trim() ?? "";
  const disp = get("content-disposition");
  const name = /\bname="([^"]*)"/i.exec(disp)?.[1];
  if (name === undefined) throw new BadRequestError("A multipart part has no name");
  const star = /\bfilename\*=(?:UTF-8|utf-8)''([^;]+)/.exec(disp)?.[1];
  let fileName = /\bfilename="([^"]*)"/i.exec(disp)?.[1] ?? null;
  if (star) {
    try {
      fileName = decodeURIComponent(star);
    } catch {
      /* keep the plain filename */
    }
  }
  return { name, fileName, contentType: get("content-type") || "application/octet-stream" };
}

/**
 * Streams a multipart/form-data body: text fields are collected (64 KiB in all), file parts are handed chunk by
 * chunk to `sink` and never held whole in memory. Only the part named `fileField` is accepted as a file.
 */
export async function parseMultipart(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | undefined,
  fileField: string,
  sink: FileSink,
): Promise<{ fields: Record<string, string>; sawFile: boolean }> {
  if (!body) throw new BadRequestError("Empty request body");
  const delimiter = Buffer.from(`\r\n--${boundaryOf(contentType)}`);
  const fields: Record<string, string> = {};
  let textBytes = 0;
  let sawFile = false;
  // A leading CRLF lets the first boundary be found with the same delimiter as the others.
  let buf: Buffer = Buffer.from("\r\n");
  let state: "preamble" | "headers" | "body" | "done" = "preamble";
  let part: { name: string; fileName: string | null; text: Buffer[]; isFile: boolean } | null = null;

  const emit = async (bytes: Buffer) => {
    if (!part || bytes.length === 0) return;
    if (part.isFile) return sink.data(bytes);
    textBytes += bytes.length;
    if (textBytes > MAX_TEXT_BYTES) throw new BadRequestError("Multipart text fields are too large");
    part.text.push(bytes);
  };
  const closePart = async () => {
    if (!part) return;
    if (part.isFile) await sink.end();
    else fields[part.name] = Buffer.concat(part.text).toString("utf8");
    part = null;
  };

  const reader = body.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buf = buf.length ? Buffer.concat([buf, value]) : Buffer.from(value);
    // Consume as much of the buffer as the current state allows.
    for (let progressed = true; progressed && state !== "done"; ) {
      progressed = false;
      if (state === "preamble" || state === "body") {
        const at = buf.indexOf(delimiter);
        if (at < 0) {
          // Keep a tail that might be the start of a delimiter split across chunks.
          const keep = Math.min(buf.length, delimiter.length + 1);
          if (state === "body") await emit(buf.subarray(0, buf.length - keep));
          buf = buf.subarray(buf.length - keep);
          break;
        }
        if (buf.length < at + delimiter.length + 2) break;
        if (state === "body") await emit(buf.subarray(0, at));
        await closePart();
        const after = buf.subarray(at + delimiter.length, at + delimiter.length + 2).toString("latin1");
        buf = buf.subarray(at + delimiter.length + 2);
        state = after === "--" ? "done" : "headers";
        progressed = true;
      } else if (state === "headers") {
        const end = buf.indexOf(CRLF2);
        if (end < 0) {
          if (buf.length > MAX_HEADER_BYTES) throw new BadRequestError("Multipart part headers are too large");
          break;
        }
        const h = parseDisposition(buf.subarray(0, end).toString("utf8"));
        buf = buf.subarray(end + 4);
        const isFile = h.fileName !== null;
        if (isFile) {
          if (h.name !== fileField)
            throw new BadRequestError(`Unexpected file part '${h.name}'; send the file as '${fileField}'`);
          if (sawFile) throw new BadRequestError(`Only one '${fileField}' part is accepted`);
          sawFile = true;
          await sink.begin({ fieldName: h.name, fileName: h.fileName!, contentType: h.contentType });
        }
        part = { name: h.name, fileName: h.fileName, text: [], isFile };
        state = "body";
        progressed = true;
      }
    }
    if (done || state === "done") break;
  }
  if (state !== "done") {
    await reader.cancel().catch(() => undefined);
    throw new BadRequestError("Truncated multipart body");
  }
  await reader.cancel().catch(() => undefined);
  return { fields, sawFile };
}
