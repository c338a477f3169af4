import { createHash, type Hash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, statSync, unlinkSync } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { tenantFilesDir } from "../../../tenants/paths";
import { PayloadTooLargeError } from "../errors";

/**
 * Content-addressed files of one tenant: `<tenant>/files/attachments/<ab>/<sha256>`. Uploads stream into
 * `files/tmp/` (same file system) and are renamed into place only when complete and synced, so a stored name
 * always holds its whole content.
 */
export class TenantFileStore {
  readonly root: string;
  readonly tmpDir: string;

  constructor(dataDir: string, tenantId: string) {
    const base = tenantFilesDir(dataDir, tenantId);
    this.root = join(base, "attachments");
    this.tmpDir = join(base, "tmp");
  }

  pathOf(sha256: string): string {
    return join(this.root, sha256.slice(0, 2), sha256);
  }

  /** Starts a temporary file that hashes and counts what is written, refusing more than `maxBytes`. */
  async begin(maxBytes: number): Promise<TempFile> {
    mkdirSync(this.tmpDir, { recursive: true });
    const path = join(this.tmpDir, `${crypto.randomUUID()}.part`);
    return new TempFile(path, await open(path, "wx"), maxBytes);
  }

  /**
   * Moves a finished temporary file to its content address and makes the move durable (the directory's fsync runs
   * on the thread pool, never on the event loop), before the row that names it is written. The returned pin keeps
   * `remove` from deleting the file (a concurrent delete of another row of the same content) until the caller's
   * transaction has committed or failed: release it in a `finally`. Should that transaction fail, the placed file
   * stays without a row, as a file of a failed commit always could (the orphan sweep's business).
   */
  async place(tmp: { path: string; sha256: string }): Promise<{ release(): void }> {
    const dest = this.pathOf(tmp.sha256);
    pinned.set(dest, (pinned.get(dest) ?? 0) + 1);
    const release = () => {
      const n = (pinned.get(dest) ?? 1) - 1;
      if (n) pinned.set(dest, n);
      else pinned.delete(dest);
    };
    try {
      if (existsSync(dest)) {
        unlinkSync(tmp.path);
        return { release };
      }
      const dir = join(this.root, tmp.sha256.slice(0, 2));
      mkdirSync(dir, { recursive: true });
      renameSync(tmp.path, dest);
      await syncDir(dir);
      return { release };
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Removes a stored file (caller checked no row refers to it). */
  remove(sha256: string): void {
    const path = this.pathOf(sha256);
    // An upload of the same content placed it and is about to write its row: the file is its now.
    if (pinned.has(path)) return;
    try {
      unlinkSync(path);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }

  /** Temporary files left by interrupted uploads, older than `olderThanMs` (for the orphan sweep). */
  staleTemps(nowMs: number, olderThanMs: number): string[] {
    if (!existsSync(this.tmpDir)) return [];
    return readdirSync(this.tmpDir)
      .map((n) => join(this.tmpDir, n))
      .filter((p) => nowMs - statSync(p).mtimeMs > olderThanMs);
  }

  /** Every stored content address (for the orphan sweep). */
  storedShas(): string[] {
    if (!existsSync(this.root)) return [];
    return readdirSync(this.root).flatMap((d) => readdirSync(join(this.root, d)));
  }
}

/** Stored files placed by uploads whose row is not committed yet (path → uploads), shared by every store instance. */
const pinned = new Map<string, number>();

async function syncDir(dir: string): Promise<void> {
  // Makes the rename itself durable; some platforms cannot open directories, which only weakens durability.
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, "r");
    await fh.sync();
  } catch {
    /* best effort */
  } finally {
    await fh?.close().catch(() => undefined);
  }
}

export class TempFile {
  size = 0;
  private readonly hash: Hash = createHash("sha256");
  private closed = false;

  constructor(
    readonly path: string,
    private readonly fh: FileHandle,
    private readonly maxBytes: number,
  ) {}

  async write(chunk: Uint8Array): Promise<void> {
    this.size += chunk.byteLength;
    if (this.size > this.maxBytes)
      throw new PayloadTooLargeError(`The file exceeds the maximum upload size of ${this.maxBytes} bytes`);
    this.hash.update(chunk);
    await this.fh.write(chunk);
  }

  /** Syncs and closes; returns the content address. */
  async finish(): Promise<{ path: string; sha256: string; size: number }> {
    await this.fh.sync();
    await this.close();
    return { path: this.path, sha256: this.hash.digest("hex"), size: this.size };
  }

  /** Closes and deletes the temporary file (any failure path). */
  async discard(): Promise<void> {
    await this.close().catch(() => undefined);
    try {
      unlinkSync(this.path);
    } catch {
      /* already gone */
    }
  }

  private async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.fh.close();
  }
}
