export interface CheckpointerConfig {
  dbs: { name: string; path: string }[];
  /** Pause between rounds when every WAL is checkpointed (a round with frames left runs again at once). */
  intervalMs: number;
  /** An idle database whose WAL file is larger is checkpointed with TRUNCATE (the file shrinks to 0 bytes). */
  truncateAboveBytes: number;
  /** Past this size the TRUNCATE runs even under load, waiting up to hardLimitWaitMs for writers and readers. */
  hardLimitBytes: number;
  hardLimitWaitMs: number;
}

/** What the worker reports after each checkpoint that copied frames, and after each TRUNCATE. */
export interface CheckpointReport {
  db: string;
  mode: "PASSIVE" | "TRUNCATE";
  seconds: number;
  /** The checkpoint could not finish (a reader or writer held it); it is tried again next round. */
  busy: boolean;
  walBytes: number;
}

export interface Checkpointer {
  stop(): Promise<void>;
}

const DEFAULTS = {
  intervalMs: 100,
  truncateAboveBytes: 4 * 1024 * 1024,
  hardLimitBytes: 256 * 1024 * 1024,
  hardLimitWaitMs: 50,
};

/**
 * Starts the background checkpointer: a Bun worker with its own connection to each database (engine, platform),
 * whose connections in the service have wal_autocheckpoint = 0 (db/connection.ts), so no commit on the event loop
 * ever runs a checkpoint. Checkpoints (and their fsyncs) happen on the worker's thread.
 */
export function startCheckpointer(
  opts: Partial<CheckpointerConfig> & Pick<CheckpointerConfig, "dbs">,
  onReport: (r: CheckpointReport) => void = () => {},
  onError: (message: string) => void = () => {},
): Checkpointer {
  const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url));
  worker.onmessage = (event: MessageEvent) => {
    const data = event.data as CheckpointReport & { error?: string; stopped?: true };
    if (data.error) onError(data.error);
    else if (!data.stopped) onReport(data);
  };
  worker.onerror = (e: ErrorEvent) => onError(e.message);
  worker.postMessage({ start: { ...DEFAULTS, ...opts } });
  // The service's own lifetime decides when it ends: the worker must not keep a finished process (or test) alive.
  (worker as Worker & { unref(): void }).unref();
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        // A worker stuck in a checkpoint must not hold the shutdown: after 5 s it is terminated as it stands (its
        // connections' state is SQLite's to recover, as after a crash).
        const timer = setTimeout(() => done(), 5000);
        const done = () => {
          clearTimeout(timer);
          worker.terminate();
          resolve();
        };
        worker.addEventListener("message", (e: MessageEvent) => (e.data as { stopped?: true }).stopped && done());
        worker.addEventListener("error", done);
        worker.postMessage({ stop: true });
      }),
  };
}
