import type { ParsedMail } from "mailparser";

/** How deep nested multiparts are looked into for undeclared 8-bit text (deeper parts are parsed as they are). */
const MAX_DEPTH = 8;

const utf8 = new TextDecoder("utf-8", { fatal: true });
const cp1252 = new TextDecoder("windows-1252");

const isUtf8 = (b: Uint8Array) => {
  try {
    utf8.decode(b);
    return true;
  } catch {
    return false;
  }
};
const hasHighBytes = (b: Uint8Array) => b.some((x) => x >= 0x80);

/** Where the header block ends and the body begins (the first empty line), or the whole entity as headers. */
function splitEntity(b: Buffer): { head: Buffer; sep: Buffer; body: Buffer } {
  const crlf = b.indexOf("\r\n\r\n");
  const lf = b.indexOf("\n\n");
  const at = crlf >= 0 && (lf < 0 || crlf < lf) ? crlf : lf;
  if (at < 0) return { head: b, sep: Buffer.alloc(0), body: Buffer.alloc(0) };
  const len = at === crlf ? 4 : 2;
  return { head: b.subarray(0, at), sep: b.subarray(at, at + len), body: b.subarray(at + len) };
}

const headerValue = (head: string, name: string) =>
  new RegExp(`^${name}:([^\\n]*(?:\\n[ \\t][^\\n]*)*)`, "im")
    .exec(head)?.[1]
    ?.replace(/\r?\n[ \t]/g, " ")
    .trim();

/**
 * Raw 8-bit text that declares no charset and is not valid UTF-8 is read as windows-1252, as mail clients do (old
 * ERP systems send `Subject: Fatura nº 12` in it): such a header block is transcoded to UTF-8, and a text part
 * without a charset parameter gets `charset=windows-1252`. Everything declared, or valid UTF-8, is left as sent.
 */
export function withWindows1252Fallback(entity: Buffer, depth = 0): Buffer {
  if (depth > MAX_DEPTH || !hasHighBytes(entity)) return entity;
  const { head, sep, body } = splitEntity(entity);
  let headText = isUtf8(head) ? head.toString("utf8") : cp1252.decode(head);
  const contentType = headerValue(headText, "content-type") ?? "text/plain";
  const boundary = /boundary\s*=\s*"?([^";]+)"?/i.exec(contentType)?.[1];
  let newBody = body;
  if (/^multipart\//i.test(contentType) && boundary) {
    newBody = mapParts(body, boundary, (part) => withWindows1252Fallback(part, depth + 1));
  } else if (/^text\//i.test(contentType) && !/charset\s*=/i.test(contentType)) {
    const cte = (headerValue(headText, "content-transfer-encoding") ?? "7bit").toLowerCase();
    if ((cte === "8bit" || cte === "7bit" || cte === "binary") && hasHighBytes(body) && !isUtf8(body)) {
      const declared = headerValue(headText, "content-type") !== undefined;
      headText = declared
        ? headText.replace(/^(content-type:[^\n]*?)(\r?)$/im, "$1; charset=windows-1252$2")
        : `${headText}${sep.includes("\r") ? "\r\n" : "\n"}Content-Type: text/plain; charset=windows-1252`;
    }
  }
  return Buffer.concat([Buffer.from(headText, "utf8"), sep, newBody]);
}

/** Applies `fn` to each part between the boundary lines, keeping the preamble, delimiters and epilogue as they are. */
function mapParts(body: Buffer, boundary: string, fn: (part: Buffer) => Buffer): Buffer {
  const delimiter = Buffer.from(`--${boundary}`);
  const out: Buffer[] = [];
  let from = 0;
  let at = body.indexOf(delimiter);
  if (at < 0) return body;
  out.push(body.subarray(0, at));
  while (at >= 0) {
    const lineEnd = body.indexOf("\n", at);
    if (lineEnd < 0) {
      out.push(body.subarray(at));
      return Buffer.concat(out);
    }
    out.push(body.subarray(at, lineEnd + 1));
    from = lineEnd + 1;
    const next = body.indexOf(delimiter, from);
    if (next < 0) {
      out.push(body.subarray(from)); // the epilogue after the closing delimiter
      return Buffer.concat(out);
    }
    // The line break before the next delimiter belongs to the delimiter, not to the part.
    const partEnd = body[next - 2] === 0x0d ? next - 2 : next - 1;
    out.push(fn(body.subarray(from, Math.max(from, partEnd))), body.subarray(Math.max(from, partEnd), next));
    at = next;
  }
  return Buffer.concat(out);
}

/** The parsed message, with the windows-1252 fallback for undeclared 8-bit text. */
export async function parseMail(source: Buffer): Promise<ParsedMail> {
  const { simpleParser } = await import("mailparser"); // imported on first use: start-up does not pay for it
  return simpleParser(withWindows1252Fallback(source));
}
