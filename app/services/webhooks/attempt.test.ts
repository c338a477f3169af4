import { afterAll, expect, test } from "bun:test";
import { brotliCompressSync } from "node:zlib";
import { head } from "./attempt";

// A receiver's answer is recorded up to 1 KB. Content-Length counts the encoded bytes, and fetch inflates a compressed
// body: a tiny brotli answer must not become hundreds of megabytes in the service (nor in webhook_attempts).
const bomb = brotliCompressSync(Buffer.alloc(50_000_000, "a"));
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (req) =>
    new URL(req.url).pathname === "/bomb"
      ? new Response(bomb, { headers: { "content-encoding": "br", "content-length": String(bomb.length) } })
      : new Response("short answer", { headers: { "content-length": "12" } }),
});
afterAll(() => server.stop(true));

test("a compressed answer of small encoded length is read through the bounded reader, 1 KB at most", async () => {
  expect(bomb.length).toBeLessThan(1024); // the case that took the shortcut: Content-Length under the limit
  const text = await head(await fetch(`http://127.0.0.1:${server.port}/bomb`), 1024);
  expect(text.length).toBeLessThanOrEqual(1024);
  expect(text.startsWith("aaaa")).toBe(true);
});

test("a short plain answer is read whole", async () => {
  expect(await head(await fetch(`http://127.0.0.1:${server.port}/plain`), 1024)).toBe("short answer");
});
