/** A multipart body of one generated file of `size` bytes (entity GLOBAL/bench), streamed chunk by chunk. */
export function multipartUpload(size: number, boundary: string): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  const chunk = new Uint8Array(64 * 1024).map((_, i) => i % 251);
  let sent = 0;
  let phase = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(ctl) {
      if (phase === 0) {
        ctl.enqueue(
          enc.encode(
            `--${boundary}\r\nContent-Disposition: form-data; name="entityType"\r\n\r\nGLOBAL\r\n--${boundary}\r\nContent-Disposition: form-data; name="entityId"\r\n\r\nbench\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
          ),
        );
        phase = 1;
      } else if (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        ctl.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
        sent += n;
      } else {
        ctl.enqueue(enc.encode(`\r\n--${boundary}--\r\n`));
        ctl.close();
      }
    },
  });
  return body;
}
