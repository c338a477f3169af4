import { openSync, readSync, closeSync, statSync } from "node:fs";
import { join } from "node:path";

const BLOCK = 512;
const CHUNK = 64 * 1024;

/** One ustar header: names up to 255 bytes (prefix + name), sizes below 8 GiB. */
function header(path: string, size: number, mtime: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const enc = new TextEncoder();
  let name = path;
  let prefix = "";
  if (enc.encode(name).length > 100) {
    const cut = path.lastIndexOf("/", 155);
    if (cut <= 0 || enc.encode(path.slice(cut + 1)).length > 100) throw new Error(`path too long for tar: ${path}`);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
  }
  const put = (text: string, at: number, len: number) => h.set(enc.encode(text).subarray(0, len), at);
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, "0");
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime / 1000), 12), 136, 12);
  put("        ", 148, 8); // checksum is computed over spaces in its own field
  put("0", 156, 1);
  put("ustar\u0000", 257, 6);
  put("00", 263, 2);
  put(prefix, 345, 155);
  const sum = h.reduce((a, b) => a + b, 0);
  put(`${octal(sum, 7)}\u0000`, 148, 8);
  return h;
}

/**
 * A tar archive of `paths` (relative to `root`) as a stream, read file by file in 64 KiB chunks so a large export
 * never sits in memory; `onEnd` runs when the stream is finished or cancelled (to remove a temporary folder).
 */
export function tarStream(root: string, paths: string[], onEnd: () => void): ReadableStream<Uint8Array> {
  let i = 0;
  let fd: number | null = null;
  let left = 0;
  let size = 0;
  let ended = false;
  const finish = () => {
    if (fd !== null) closeSync(fd);
    fd = null;
    if (!ended) onEnd();
    ended = true;
  };
  return new ReadableStream({
    pull(ctl) {
      try {
        if (fd === null) {
          if (i >= paths.length) {
            ctl.enqueue(new Uint8Array(BLOCK * 2));
            ctl.close();
            finish();
            return;
          }
          const p = paths[i++];
          const st = statSync(join(root, p));
          fd = openSync(join(root, p), "r");
          left = size = st.size;
          ctl.enqueue(header(p, st.size, st.mtimeMs));
          if (left > 0) return;
        }
        const buf = new Uint8Array(Math.min(CHUNK, left));
        const n = readSync(fd, buf, 0, buf.length, null);
        left -= n;
        ctl.enqueue(n === buf.length ? buf : buf.subarray(0, n));
        if (left <= 0 || n === 0) {
          closeSync(fd);
          fd = null;
          const pad = (BLOCK - (size % BLOCK)) % BLOCK;
          if (pad) ctl.enqueue(new Uint8Array(pad));
        }
      } catch (e) {
        finish();
        ctl.error(e);
      }
    },
    cancel() {
      finish();
    },
  });
}
