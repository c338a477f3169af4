import type { Database } from "bun:sqlite";
import { writeGate } from "./write-gate";

export interface CheckpointerConfig {
  /** `gated`: the service's connection writes through a group commit that holds its writes when asked (write-gate). */
  dbs: { name: string; path: string; gated?: boolean }[];
  /** Pause between rounds when every WAL is checkpointed (a round with frames left runs again at once). */
  intervalMs: number;
  /** An idle database whose WAL file is larger is checkpointed with TRUNCATE (the file shrinks to 0 bytes). */
  truncateAboveBytes: number;
  /** Past this size the TRUNCATE runs even under load, waiting up to hardLimitWaitMs for writers and readers. */
  hardLimitBytes: number;
  hardLimitWaitMs: number;
  /**
   * A gated database whose WAL holds more frames than this many bytes' worth is caught up with its writes held for
   * one checkpoint, so that the next commit starts the WAL over (write-gate.ts): the file stays near this size.
   */
  restartAboveBytes: number;
  /** The longest the service holds writes for one catch-up or TRUNCATE, whatever the worker does. */
  maxHoldMs: number;
}

/** What the worker reports after each checkpoint that copied frames, and after each TRUNCATE. */
export interface CheckpointReport {
  db: string;
  mode: "PASSIVE" | "TRUNCATE";
  seconds: number;
  /** Run while the service held its writes (a catch-up, or a TRUNCATE of a gated database). */
  writesHeld?: boolean;
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
  restartAboveBytes: 16 * 1024 * 1024,
  // A TRUNCATE of a WAL of hundreds of MiB (left by a bulk load) took 0.2–1.1 s on this machine. Releasing before the
  // worker is done would only move the wait into SQLite's busy handler, on the event loop.
  maxHoldMs: 5000,
};

/** A database as the checkpointer is given it: with the service's connection when its writes can be held. */
export interface CheckpointedDb {
  name: string;
  path: string;
  /** The connection whose group commits pause for a catch-up (the engine's); without it the WAL is never held. */
  connection?: Database;
}

/**
 * Starts the background checkpointer: a Bun worker with its own connection to each database (engine, platform),
 * whose connections in the service have wal_autocheckpoint = 0 (db/connection.ts), so no commit on the event loop
 * ever runs a checkpoint. Checkpoints (and their fsyncs) happen on the worker's thread.
 */
export function startCheckpointer(
  opts: Partial<Omit<CheckpointerConfig, "dbs">> & { dbs: CheckpointedDb[] },
  onReport: (r: CheckpointReport) => void = () => {},
  onError: (message: string) => void = () => {},
): Checkpointer {
  const config: CheckpointerConfig = {
    ...DEFAULTS,
    ...opts,
    dbs: opts.dbs.map((d) => ({ name: d.name, path: d.path, gated: !!d.connection })),
  };
  const gates = new Map(opts.dbs.flatMap((d) => (d.connection ? [[d.name, writeGate(d.connection)] as const] : [])));
  // The hold the worker asked for, released when it says so or after maxHoldMs at the latest.
  let holding: { name: string; timer: ReturnType<typeof setTimeout> } | null = null;
  const release = () => {
    if (!holding) return;
    clearTimeout(holding.timer);
    const gate = gates.get(holding.name);
    holding = null;
    gate?.release();
  };
  const worker = new Worker(new URL("./checkpoint-worker.ts", import.meta.url));
  worker.onmessage = (event: MessageEvent) => {
    const data = event.data as CheckpointReport & { error?: string; stopped?: true; hold?: string; release?: string };
    if (data.hold) {
      // Between two event-loop tasks no group commit is open: the worker's checkpoint can now reach the WAL's end.
      release();
      gates.get(data.hold)?.hold();
      holding = { name: data.hold, timer: setTimeout(release, config.maxHoldMs) };
      worker.postMessage({ held: data.hold });
    } else if (data.release) release();
    else if (data.error) onError(data.error);
    else if (!data.stopped) onReport(data);
  };
  worker.onerror = (e: ErrorEvent) => {
    release();
    onError(e.message);
  };
  worker.postMessage({ start: config });
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
          release();
          worker.terminate();
          resolve();
        };
        worker.addEventListener("message", (e: MessageEvent) => (e.data as { stopped?: true }).stopped && done());
        worker.addEventListener("error", done);
        worker.postMessage({ stop: true });
      }),
  };
}
