// Worker entry: trains a base's coarse quantiser off the event loop, on its own read-only connection to the file.
import { Database } from "bun:sqlite";
import * as sqliteVec from "sqlite-vec";
import { setBusyTimeout } from "../../../db/connection";
import { type TrainRequest, trainAndAssign } from "./ivf-train";

declare const self: Worker;

self.onmessage = (event: MessageEvent<TrainRequest & { path: string }>) => {
  const db = new Database(event.data.path, { readonly: true });
  try {
    sqliteVec.load(db);
    setBusyTimeout(db, 5000);
    const r = trainAndAssign(db, event.data);
    self.postMessage({ ok: true, ...r }, [r.centroids.buffer, r.ids.buffer, r.cellOf.buffer]);
  } catch (e) {
    self.postMessage({ ok: false, error: e instanceof Error ? e.message : String(e) });
  } finally {
    db.close();
  }
};
