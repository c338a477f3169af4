// The background checkpointer's thread (started by db/checkpointer.ts): its own connection to each database, PASSIVE
// checkpoints while the service writes (they never block a writer), a TRUNCATE once a database is idle and its WAL is
// large, and a TRUNCATE that may briefly hold writers only when the WAL keeps growing past the hard limit.
import { statSync } from "node:fs";
import type { Database } from "bun:sqlite";
import { openSqlite, setBusyTimeout } from "./connection";
import type { CheckpointerConfig, CheckpointReport } from "./checkpointer";

declare const self: Worker;

interface Watched {
  name: string;
  path: string;
  db: Database;
  lastLog: number;
}

let timer: ReturnType<typeof setTimeout> | undefined;
let watched: Watched[] = [];
let config: CheckpointerConfig;

const walBytes = (path: string) => {
  try {
    return statSync(`${path}-wal`).size;
  } catch {
    return 0;
  }
};

function checkpoint(w: Watched, mode: "PASSIVE" | "TRUNCATE"): { busy: number; log: number; checkpointed: number } {
  const t0 = performance.now();
  const r = w.db.query(`PRAGMA wal_checkpoint(${mode})`).get() as { busy: number; log: number; checkpointed: number };
  const report: CheckpointReport = {
    db: w.name,
    mode,
    seconds: (performance.now() - t0) / 1000,
    busy: r.busy === 1,
    walBytes: walBytes(w.path),
  };
  if (mode === "TRUNCATE" || r.checkpointed > 0) self.postMessage(report);
  return r;
}

/** One round over the databases; true when one still has frames to copy (the next round comes at once). */
function round(): boolean {
  let behind = false;
  for (const w of watched) {
    const r = checkpoint(w, "PASSIVE");
    const size = walBytes(w.path);
    const idle = r.log === r.checkpointed && r.log === w.lastLog;
    w.lastLog = r.log;
    if ((idle && r.log > 0 && size > config.truncateAboveBytes) || size > config.hardLimitBytes) {
      // Writers wait for a TRUNCATE: when idle there are none; past the hard limit a short wait beats an unbounded WAL.
      setBusyTimeout(w.db, size > config.hardLimitBytes ? config.hardLimitWaitMs : 0);
      checkpoint(w, "TRUNCATE");
      w.lastLog = 0;
    } else if (r.log > r.checkpointed && r.busy === 0) behind = true;
  }
  return behind;
}

function loop() {
  let behind = false;
  try {
    behind = round();
  } catch (e) {
    self.postMessage({ error: e instanceof Error ? e.message : String(e) });
  }
  timer = setTimeout(loop, behind ? 0 : config.intervalMs);
}

self.onmessage = (event: MessageEvent) => {
  const msg = event.data as { start?: CheckpointerConfig; stop?: true };
  if (msg.start) {
    config = msg.start;
    watched = config.dbs.map((d) => ({ ...d, db: openSqlite(d.path, { kind: "checkpointer" }), lastLog: -1 }));
    loop();
  }
  if (msg.stop) {
    if (timer) clearTimeout(timer);
    for (const w of watched) w.db.close();
    watched = [];
    self.postMessage({ stopped: true });
  }
};
