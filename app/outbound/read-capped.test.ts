import { expect, test } from "bun:test";
import { AnswerTooLarge, readCapped } from "./read-capped";

const streamed = (parts: string[]) =>
  new Response(
    new ReadableStream({
      start(c) {
        for (const p of parts) c.enqueue(new TextEncoder().encode(p));
        c.close();
      },
    }),
  );

test("reads an answer within the bound as UTF-8 text", async () => {
  expect(await readCapped(streamed(["caf", "é"]), 5)).toBe("café");
  expect(await readCapped(new Response(null), 5)).toBe("");
});

test("refuses a declared Content-Length over the bound before reading, and a streamed body once it passes it", async () => {
  const declared = new Response("x", { headers: { "content-length": "11" } });
  await expect(readCapped(declared, 10)).rejects.toBeInstanceOf(AnswerTooLarge);
  let pulled = 0;
  const endless = new Response(
    new ReadableStream({
      pull(c) {
        pulled++;
        c.enqueue(new Uint8Array(4));
      },
    }),
  );
  await expect(readCapped(endless, 10)).rejects.toThrow("the answer is larger than 10 bytes");
  expect(pulled).toBeLessThan(10); // cancelled as soon as it passed the bound, not read on
});
