import { describe, expect, test } from "bun:test";
import { coalesced } from "./event-stream";

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

/** A stream whose chunks and end the test writes when it chooses. */
function source() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let cancelled: unknown = "not cancelled";
  const stream = new ReadableStream<Uint8Array>({
    start: (c) => void (controller = c),
    cancel: (reason) => void (cancelled = reason),
  });
  return { stream, controller, cancelled: () => cancelled };
}

describe("coalesced: a POST's event stream sent whole when it is already over", () => {
  test("an answer written and closed at once comes back as one body", async () => {
    const s = source();
    const body = coalesced(s.stream);
    s.controller.enqueue(bytes("event: message\ndata: {}\n\n"));
    s.controller.close();
    const out = await body;
    expect(out).toBeInstanceOf(Uint8Array);
    expect(text(out as Uint8Array)).toBe("event: message\ndata: {}\n\n");
  });

  test("several events written before the close are joined in order", async () => {
    const s = source();
    const body = coalesced(s.stream);
    s.controller.enqueue(bytes("a\n\n"));
    s.controller.enqueue(bytes("b\n\n"));
    s.controller.close();
    expect(text((await body) as Uint8Array)).toBe("a\n\nb\n\n");
  });

  test("a stream still open after its first event is passed on as a stream, the first event at once", async () => {
    const s = source();
    const body = coalesced(s.stream);
    s.controller.enqueue(bytes(": keep-alive\n\n"));
    const out = await body; // resolves without the stream ending: the event is not held back
    expect(out).toBeInstanceOf(ReadableStream);
    const reader = (out as ReadableStream<Uint8Array>).getReader();
    expect(text((await reader.read()).value as Uint8Array)).toBe(": keep-alive\n\n");
    const later = reader.read();
    s.controller.enqueue(bytes("data: answer\n\n"));
    expect(text((await later).value as Uint8Array)).toBe("data: answer\n\n");
    s.controller.close();
    expect((await reader.read()).done).toBe(true);
  });

  test("a client going away cancels the source (the SDK clears its keep-alive timer there)", async () => {
    const s = source();
    const body = coalesced(s.stream);
    s.controller.enqueue(bytes(": keep-alive\n\n"));
    const reader = ((await body) as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    await reader.cancel("gone");
    expect(s.cancelled()).toBe("gone");
  });

  test("a client gone before the first event cancels the source at once, not at the answer", async () => {
    const s = source();
    const gone = new AbortController();
    const body = coalesced(s.stream, gone.signal);
    gone.abort("client closed the connection");
    await body; // settles without the answer: nothing waits for the call to end
    expect(s.cancelled()).toBe("client closed the connection");
  });

  test("once the body is decided the signal is let go: a stream passed on is cancelled only through itself", async () => {
    // A stream still open after its first event (a long call's keep-alive): a closed one cannot be cancelled at all,
    // so only this case shows whether coalesced still listens to the request after it answered.
    const s = source();
    const request = new AbortController();
    const body = coalesced(s.stream, request.signal);
    s.controller.enqueue(bytes(": keep-alive\n\n"));
    const reader = ((await body) as ReadableStream<Uint8Array>).getReader();
    request.abort("later");
    expect(s.cancelled()).toBe("not cancelled");
    await reader.read();
    s.controller.enqueue(bytes("data: answer\n\n"));
    expect(text((await reader.read()).value as Uint8Array)).toBe("data: answer\n\n");
  });

  test("a stream that fails before it is sent is passed on failing, not thrown (no 500 for the request)", async () => {
    const s = source();
    const body = coalesced(s.stream);
    s.controller.error(new Error("transport closed"));
    const out = await body;
    expect(out).toBeInstanceOf(ReadableStream);
    await expect((out as ReadableStream<Uint8Array>).getReader().read()).rejects.toThrow("transport closed");
  });
});
