import { openSync, write, writeSync } from "node:fs";

/**
 * Where log lines go: an in-memory batch handed to the kernel with one write when it passes 32 KiB and at least every
 * 200 ms. The write is asynchronous (Bun's I/O threads), so the event loop never waits on the disk: a 32 KiB write to
 * a log file measured ~1 ms under write-back throttling, which a synchronous write charged to every request in flight.
 * Lines are whole when written, so the pino logger and the access log share one sink and one order. `flush(cb)` at
 * shutdown waits for the write in flight, then writes the rest; on a bare `exit` the batch not yet handed over is
 * written synchronously (a write in flight then is the kernel's).
 */
export interface LineSink {
  write(line: string): void;
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
}

const BATCH_BYTES = 32 * 1024;
const FLUSH_MS = 200;

export function createLineSink(dest: string | number): LineSink {
  const fd = typeof dest === "number" ? dest : openSync(dest, "a");
  let batch: string[] = [];
  let size = 0;
  let inFlight = false;
  let waiters: (() => void)[] = [];

  const take = (): Buffer => {
    const buf = Buffer.from(batch.join(""));
    batch = [];
    size = 0;
    return buf;
  };
  // A pipe may take part of a write: the rest goes next, never dropped.
  const writeOut = (buf: Buffer): void => {
    inFlight = true;
    write(fd, buf, (err, n) => {
      if (!err && n < buf.length) return writeOut(buf.subarray(n));
      // An error (stdout closed) drops this batch: there is nowhere left to log to.
      inFlight = false;
      if (size > 0) return writeOut(take());
      const done = waiters;
      waiters = [];
      for (const w of done) w();
    });
  };
  const kick = () => {
    if (!inFlight && size > 0) writeOut(take());
  };
  const flushSync = () => {
    if (size === 0) return;
    let buf = take();
    while (buf.length > 0) {
      try {
        buf = buf.subarray(writeSync(fd, buf));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EAGAIN") return;
      }
    }
  };
  setInterval(kick, FLUSH_MS).unref();
  process.on("exit", flushSync);
  return {
    write(line) {
      batch.push(line);
      size += line.length;
      if (size >= BATCH_BYTES) kick();
    },
    flush(cb) {
      kick();
      if (!inFlight) return void cb?.();
      waiters.push(() => cb?.());
    },
    flushSync,
  };
}
