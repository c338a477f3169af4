/** An answer larger than the caller accepts: refused as soon as its size (declared or read so far) passes the bound. */
export class AnswerTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

/**
 * Reads a response body as UTF-8 text, at most `maxBytes`: a declared Content-Length over it is refused before reading,
 * a streamed body as soon as it passes it (the rest is cancelled, never buffered). The one bounded read of outbound
 * answers (data sources, OAuth2 token endpoints, OIDC key sets).
 */
export async function readCapped(res: Response, maxBytes: number): Promise<string> {
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (declared > maxBytes) throw new AnswerTooLarge(maxBytes);
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new AnswerTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
