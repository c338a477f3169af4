// The background checkpointer's thread (started by db/checkpointer.ts): its own connection to each database, PASSIVE
// checkpoints while the service writes (they never block a writer), a TRUNCATE once a database is idle and its WAL is
// large, and a TRUNCATE that may briefly hold writers only when the WAL keeps growing past the hard limit. Under
// continuous writes a gated database (the engine) is caught up with the service's commits held for one checkpoint,
// so that its next commit starts the WAL over (write-gate.ts) and the file stays small without blocking anyone.
import { statSync } from "node:fs";
import type { Database } from "bun:sqlite";
import { openSqlite, setBusyTimeout } from "./connection";
import type { CheckpointerConfig, CheckpointReport } from "./checkpointer";

declare const self: Worker;

interface Watched {
  name: string;
  path: string;
  gated: boolean;
  db: Database;
  lastLog: number;
  /** Frames of the WAL past which a gated database is caught up (restartAboveBytes in pages). */
  restartAboveFrames: number;
}

let timer: ReturnType<typeof setTimeout> | undefined;
let watched: Watched[] = [];
let config: CheckpointerConfig;
/** The database waiting for the service to hold its writes, and the checkpoint to run then; rounds pause meanwhile. */
let awaitingHold: { w: Watched; mode: "PASSIVE" | "TRUNCATE" } | null = null;

const walBytes = (path: string) => {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
};

function checkpoint(
  w: Watched,
  mode: "PASSIVE" | "TRUNCATE",
  writesHeld = false,
): { busy: number; log: number; checkpointed: number } {
  const t0 = performance.now();
  const r = w.db.query(`PRAGMA wal_checkpoint(${mode})`).get() as { busy: number; log: number; checkpointed: number };
  const report: CheckpointReport = {
    db: w.name,
    mode,
    seconds: (performance.now() - t0) / 1000,
    busy: r.busy === 1,
    walBytes: walBytes(w.path),
    ...(writesHeld ? { writesHeld } : {}),
  };
  if (mode === "TRUNCATE" || r.checkpointed > 0) self.postMessage(report);
  return r;
}

/**
 * One round over the databases; "behind" when one still has frames to copy (the next round comes at once), "hold" when
 * the service was asked to hold a gated database's writes (rounds wait for its answer): for the catch-up that lets its
 * WAL start over, or for a TRUNCATE, which would otherwise make the service's writers wait on its lock.
 */
function round(): "behind" | "hold" | "done" {
  let behind = false;
  for (const w of watched) {
    const r = checkpoint(w, "PASSIVE");
    const size = walBytes(w.path);
    const idle = r.log === r.checkpointed && r.log === w.lastLog;
    w.lastLog = r.log;
    const truncate = (idle && r.log > 0 && size > config.truncateAboveBytes) || size > config.hardLimitBytes;
    if (w.gated && r.busy === 0 && (truncate || r.log > w.restartAboveFrames)) {
      awaitingHold = { w, mode: truncate ? "TRUNCATE" : "PASSIVE" };
      self.postMessage({ hold: w.name });
      return "hold";
    }
    if (truncate) {
      // Writers wait for a TRUNCATE: when idle there are none; past the hard limit a short wait beats an unbounded WAL.
      setBusyTimeout(w.db, size > config.hardLimitBytes ? config.hardLimitWaitMs : 0);
      checkpoint(w, "TRUNCATE");
      w.lastLog = 0;
    } else if (r.log > r.checkpointed && r.busy === 0) behind = true;
  }
  return behind ? "behind" : "done";
}

function loop() {
  timer = undefined;
  let next: "behind" | "hold" | "done" = "done";
  try {
    next = round();
  } catch (e) {
    self.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
  if (next !== "hold") timer = setTimeout(loop, next === "behind" ? 0 : config.intervalMs);
}

/**
 * The service holds the writes: copy the WAL's last frames (or TRUNCATE it, not waiting: a reader still in the WAL
 * only means another round), let the writes go, and go on with the rounds.
 */
function whileHeld(name: string) {
  const held = awaitingHold;
  awaitingHold = null;
  try {
    if (held?.w.name === name) {
      if (held.mode === "TRUNCATE") setBusyTimeout(held.w.db, 0);
      checkpoint(held.w, held.mode, true);
      if (held.mode === "TRUNCATE") held.w.lastLog = 0;
    }
  } catch (e) {
    self.postMessage({ error: e instanceof Error ? e.message : String(e) });
  } finally {
    self.postMessage({ release: name });
    if (watched.length) timer = setTimeout(loop, 0);
  }
}

self.onmessage = (event: MessageEvent) => {
  const msg = event.data as { start?: CheckpointerConfig; stop?: true; held?: string };
  if (msg.start) {
    config = msg.start;
    watched = config.dbs.map((d) => {
      const db = openSqlite(d.path, { kind: "checkpointer" });
      const pageSize = (db.query("PRAGMA page_size").get() as { page_size: number }).page_size;
      const restartAboveFrames = Math.ceil(config.restartAboveBytes / pageSize);
      return { name: d.name, path: d.path, gated: !!d.gated, db, lastLog: -1, restartAboveFrames };
    });
    loop();
  }
  if (msg.held) whileHeld(msg.held);
  if (msg.stop) {
    if (timer) clearTimeout(timer);
    awaitingHold = null;
    for (const w of watched) w.db.close();
    watched = [];
    self.postMessage({ stopped: true });
  }
};
