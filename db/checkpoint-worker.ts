// The background checkpointer's thread (started by db/checkpointer.ts): its own connection to each database, PASSIVE
// checkpoints while the service writes (they never block a writer), a TRUNCATE once a database is idle and its WAL is
// large, and a TRUNCATE that may briefly hold writers only when the WAL keeps growing past the hard limit. Under
// continuous writes a gated database (the engine) is caught up with the service's commits held for one checkpoint,
// so that its next commit starts the WAL over (write-gate.ts) and the file stays small without blocking anyone.
import { statSync } from "node:fs";
import type { Database } from "bun:sqlite";
import { DEFAULT_BUSY_TIMEOUT_MS, openSqlite, setBusyTimeout } from "./connection";
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
  /**
   * No hold is asked for before this time: the last held checkpoint could not reach the WAL's end (another connection's
   * read snapshot pins it, e.g. a backup), so holding the service's writes again at once would only stall them.
   */
  noHoldUntil: number;
  /** Frames copied by the last round's PASSIVE: a round that copies nothing new is not behind, it is blocked. */
  lastCheckpointed: number;
}

/** Rounds of the interval a pinned WAL is left alone before the next hold. */
const PINNED_BACKOFF_ROUNDS = 10;

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

/** A TRUNCATE waiting at most `waitMs` for readers and writers; the connection's busy timeout is restored after. */
function truncateWal(w: Watched, waitMs: number, writesHeld = false) {
  setBusyTimeout(w.db, waitMs);
  try {
    return checkpoint(w, "TRUNCATE", writesHeld);
  } finally {
    setBusyTimeout(w.db, DEFAULT_BUSY_TIMEOUT_MS); // the connection's own, outside a TRUNCATE
  }
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
    const mayHold = w.gated && r.busy === 0 && performance.now() >= w.noHoldUntil;
    // A catch-up only while writes go on; an idle WAL is truncated instead (no write would come to start it over).
    if (mayHold && (truncate || (r.log > w.restartAboveFrames && !idle))) {
      askForHold(w, truncate ? "TRUNCATE" : "PASSIVE");
      return "hold";
    }
    if (truncate && !w.gated) {
      // Writers wait for a TRUNCATE: when idle there are none; past the hard limit a short wait beats an unbounded WAL.
      truncateWal(w, size > config.hardLimitBytes ? config.hardLimitWaitMs : 0);
      w.lastLog = 0;
    } else if (r.log > r.checkpointed && r.busy === 0 && r.checkpointed !== w.lastCheckpointed) behind = true;
    // Frames left that this round could not copy (a reader pins them) are not "behind": the next try waits a round.
    w.lastCheckpointed = r.checkpointed;
  }
  return behind ? "behind" : "done";
}

/** Asks the service to hold the writes; rounds pause until it answers, or resume after maxHoldMs if it never does. */
function askForHold(w: Watched, mode: "PASSIVE" | "TRUNCATE") {
  awaitingHold = { w, mode };
  self.postMessage({ hold: w.name });
  timer = setTimeout(() => {
    if (!awaitingHold) return;
    awaitingHold = null;
    self.postMessage({ error: `the service did not hold the writes of ${w.name} within ${config.maxHoldMs} ms` });
    loop();
  }, config.maxHoldMs);
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
 * only means another round), let the writes go, and go on with the rounds. A checkpoint that could not reach the WAL's
 * end although nothing was written meanwhile means another connection pins it: no hold is asked for a while.
 */
function whileHeld(name: string) {
  const held = awaitingHold;
  if (!held || held.w.name !== name) {
    self.postMessage({ release: name }); // an answer after the worker gave up waiting: the rounds already go on
    return;
  }
  awaitingHold = null;
  if (timer) clearTimeout(timer);
  const { w, mode } = held;
  try {
    const r = mode === "TRUNCATE" ? truncateWal(w, 0, true) : checkpoint(w, "PASSIVE", true);
    if (r.busy === 1 || r.checkpointed < r.log)
      w.noHoldUntil = performance.now() + PINNED_BACKOFF_ROUNDS * config.intervalMs;
    if (mode === "TRUNCATE" && r.busy === 0) w.lastLog = 0;
  } catch (e) {
    self.postMessage({ error: e instanceof Error ? e.message : String(e) });
  } finally {
    self.postMessage({ release: name });
    // The next round a whole interval later: right after the release no write may have come yet, and an unchanged log
    // would pass for idleness (a TRUNCATE under load).
    if (watched.length) timer = setTimeout(loop, config.intervalMs);
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
      return {
        name: d.name,
        path: d.path,
        gated: !!d.gated,
        db,
        lastLog: -1,
        restartAboveFrames,
        noHoldUntil: 0,
        lastCheckpointed: -1,
      };
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
