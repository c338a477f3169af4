// How the SDK transport's event streams are sent: unbuffered through proxies, the listening stream opened at once, and
// a POST's stream that is already over sent whole.

/** The first frame of a listening stream: an SSE comment, ignored by clients. */
const OPENING = new TextEncoder().encode(": stream open\n\n");

type Read = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>["read"]>>;

/**
 * A POST's event stream, sent whole when it has already ended by the time its first event is written: the usual tool
 * call, whose one answer the SDK writes and closes at once. A fixed-length body costs the server and the client less
 * than a chunked stream (bench:mcp). Nothing is held back: the headers wait for the first event either way (the
 * server sends them with the first bytes), and a stream still open after its first event (a progress notification, a
 * keep-alive of a long call) is passed on as a stream from that event on.
 */
export async function coalesced(
  body: ReadableStream<Uint8Array>,
  signal?: AbortSignal,
): Promise<ReadableStream<Uint8Array> | Uint8Array> {
  const reader = body.getReader();
  // A client that goes away before the first event (a long call) cancels the source, as Bun does for a stream it is
  // sending: the SDK then drops the request's stream and its keep-alive timer instead of keeping them to the answer.
  const abandon = () => void reader.cancel(signal?.reason).catch(() => {});
  if (signal?.aborted) abandon();
  else signal?.addEventListener("abort", abandon, { once: true });
  try {
    return await coalesce(reader);
  } finally {
    signal?.removeEventListener("abort", abandon);
  }
}

async function coalesce(
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Promise<ReadableStream<Uint8Array> | Uint8Array> {
  const chunks: Uint8Array[] = [];
  let next: Promise<Read> = reader.read();
  for (;;) {
    // After the first event, only a read that has already settled counts (race order: `next` wins when both have).
    let r: Read | null;
    try {
      r = chunks.length ? await Promise.race([next, null]) : await next;
    } catch (e) {
      // The stream failed before it was sent: the client sees what it saw before, a response cut short, not a 500.
      return new ReadableStream<Uint8Array>({
        start(c) {
          for (const chunk of chunks) c.enqueue(chunk);
          c.error(e);
        },
      });
    }
    if (r === null) break;
    if (r.done) return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    chunks.push(r.value);
    next = reader.read();
  }
  // Still open: what was read so far at once, then the rest as it comes (starting with the read already asked for).
  let carried: Promise<Read> | null = next;
  return new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk);
    },
    async pull(c) {
      const r = await (carried ?? reader.read());
      carried = null;
      if (r.done) c.close();
      else c.enqueue(r.value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/**
 * Event streams must reach the client as they are written: no proxy buffering (X-Accel-Buffering for nginx). The GET
 * listening stream starts with a comment frame: the server sends a response's headers with its first bytes, and the
 * SDK writes nothing on that stream until a message or the first keep-alive (15 s), so without it a client would
 * wait 15 s for the stream to open. A POST's stream that is already over is sent whole (coalesced).
 */
export async function unbuffered(req: Request, res: Response): Promise<Response> {
  if (!res.headers.get("content-type")?.includes("text/event-stream") || !res.body) return res;
  // The SDK sets both today; set here too so that an SDK change cannot make proxies buffer the stream.
  const headers = res.headers;
  if (headers.get("x-accel-buffering") !== "no") headers.set("X-Accel-Buffering", "no");
  if (headers.get("cache-control") !== "no-cache, no-transform") headers.set("Cache-Control", "no-cache, no-transform");
  const body =
    req.method === "GET"
      ? res.body.pipeThrough(new TransformStream<Uint8Array, Uint8Array>({ start: (c) => c.enqueue(OPENING) }))
      : await coalesced(res.body, req.signal);
  return new Response(body as BodyInit, { status: res.status, statusText: res.statusText, headers });
}
