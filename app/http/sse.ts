/** One server-sent event frame; `data` is JSON, so a newline inside a text never splits the frame. */
export const sseFrame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export const SSE_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  // nginx (and proxies that honour it) would otherwise buffer the stream and deliver it at the end.
  "x-accel-buffering": "no",
} as const;

/**
 * A text stream as server-sent events, written as the pieces arrive (never buffered): a `delta` event per piece
 * `{text}`, then `done` `{chars}`, or `error` `{message}` when the source fails after the stream began (the status is
 * already 200 by then). A comment line every `heartbeatMs` keeps proxies from cutting a quiet stream (most cut at
 * 60 s). A client that goes away stops the source, so an abandoned answer stops costing tokens.
 */
export function sseStream(source: AsyncGenerator<string>, heartbeatMs: number): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stop = () => {
    closed = true;
    clearInterval(timer);
  };
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (text: string) => {
        if (!closed) controller.enqueue(enc.encode(text));
      };
      send(": stream open\n\n");
      timer = setInterval(() => send(": heartbeat\n\n"), heartbeatMs);
      let chars = 0;
      try {
        for await (const text of source) {
          if (closed) break;
          chars += text.length;
          send(sseFrame("delta", { text }));
        }
        send(sseFrame("done", { chars }));
      } catch (e) {
        send(sseFrame("error", { message: e instanceof Error ? e.message : String(e) }));
      } finally {
        if (!closed) {
          stop();
          controller.close();
        }
      }
    },
    async cancel() {
      stop();
      await source.return(undefined);
    },
  });
}
