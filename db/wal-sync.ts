import { type FileHandle, open } from "node:fs/promises";
import { dirname } from "node:path";

export interface WalSync {
  /**
   * Resolves once everything written to the -wal file before the call is on disk. The fdatasync runs in the thread
   * pool, never on the event loop; callers arriving while one is in flight share the next one (it may have started
   * before their frames were written), so N concurrent commits cost at most two fsyncs.
   */
  durable(): Promise<void>;
  close(): Promise<void>;
}

/** Coalesced off-loop fdatasync of a database's write-ahead log (the FULL mode of the engine's group commit). */
export function createWalSync(walPath: string): WalSync {
  let handle: Promise<FileHandle> | undefined;
  let inFlight: Promise<void> | undefined;
  let queued: { promise: Promise<void>; resolve: () => void; reject: (e: unknown) => void } | undefined;
  // The -wal file exists once the first transaction committed (durable() is only called after one). SQLite never
  // deletes it while a connection is open, and a TRUNCATE checkpoint truncates it in place, so one handle serves.
  // Its directory entry is synced once, as SQLite does on its own first sync of a new file.
  const openHandle = async () => {
    const fh = await open(walPath, "r+");
    const dir = await open(dirname(walPath), "r");
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    return fh;
  };
  const syncOnce = async () => {
    handle ??= openHandle();
    try {
      await (await handle).datasync();
    } catch (e) {
      handle = undefined;
      throw e;
    }
  };
  const start = (): Promise<void> => {
    const p = syncOnce().finally(() => {
      inFlight = undefined;
      const next = queued;
      queued = undefined;
      if (next) start().then(next.resolve, next.reject);
    });
    inFlight = p;
    return p;
  };
  return {
    durable() {
      if (!inFlight) return start();
      if (!queued) {
        let resolve!: () => void;
        let reject!: (e: unknown) => void;
        const promise = new Promise<void>((ok, ko) => {
          resolve = ok;
          reject = ko;
        });
        queued = { promise, resolve, reject };
      }
      return queued.promise;
    },
    async close() {
      await inFlight?.catch(() => {});
      await queued?.promise.catch(() => {});
      const fh = handle;
      handle = undefined;
      if (fh) await (await fh).close();
    },
  };
}
