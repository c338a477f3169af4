import type { Database } from "bun:sqlite";
import { immediate } from "../../../db/connection";
import { CaseSession, type CaseEngineDeps, type TaskRecord } from "../../../engine/cmmn";
import { ConflictError, RevisionConflict } from "../../../engine/errors";
import { createGroupCommit } from "./group-commit";
import { createCaseStore, type CaseStore } from "./store";

export interface CaseRuntimeHooks {
  formVersionFor?(tenantId: string, definitionKey: string, formKey: string): string | null;
  onTaskCreated?(task: TaskRecord): void;
}

export interface CaseRuntimeOptions {
  db: Database;
  clock?: () => number;
  hooks?: CaseRuntimeHooks;
  decisions?: CaseEngineDeps["decisions"];
  processes?: CaseEngineDeps["startProcess"];
}

export interface CaseContext {
  db: Database;
  clock: () => number;
  store: CaseStore;
  newId: () => string;
  tx<T>(fn: () => T): T;
  /**
   * Runs an engine command on a fresh session and writes its changes all or nothing (`inTx` runs first, in the same
   * transaction; concurrent commands share one commit, see group-commit.ts); retried when a case moved meanwhile.
   */
  command<T>(tenantId: string, fn: (s: CaseSession) => Promise<T>, inTx?: () => void): Promise<T>;
}

export function createCaseContext(opts: CaseRuntimeOptions): CaseContext {
  const db = opts.db;
  const clock = opts.clock ?? Date.now;
  const store = createCaseStore(db);
  const hooks = opts.hooks ?? {};
  // Time-ordered ids keep the primary keys append-only (a random UUID dirties a random leaf page per insert).
  const newId = () => Bun.randomUUIDv7();
  // Same tuning as the process runtime on this (shared) connection: keep the working set cached, checkpoint (fsync) rarely.
  db.exec("PRAGMA cache_size = -65536");
  db.exec("PRAGMA wal_autocheckpoint = 10000");
  const deps: CaseEngineDeps = {
    newId,
    loadCase: store.loadCase,
    startableDefinition: store.startableDefinition,
    formVersionFor: hooks.formVersionFor?.bind(hooks),
    decisions: opts.decisions,
    startProcess: opts.processes,
  };
  const commit = createGroupCommit(db);
  return {
    db,
    clock,
    store,
    newId,
    tx: (fn) => immediate(db, fn),
    async command(tenantId, fn, inTx) {
      for (let attempt = 0; ; attempt++) {
        const s = new CaseSession(deps, tenantId, clock());
        const result = await fn(s);
        try {
          await commit(() => {
            inTx?.();
            store.persist(s.changes);
          });
        } catch (e) {
          if (e instanceof RevisionConflict) {
            if (attempt < 8) continue;
            throw new ConflictError(`Case ${e.instanceId} keeps changing concurrently; try again`);
          }
          throw e;
        }
        if (hooks.onTaskCreated)
          for (const t of s.changes.tasksCreated) {
            try {
              hooks.onTaskCreated(t);
            } catch {
              /* a notification failure must not undo the committed command */
            }
          }
        return result;
      }
    },
  };
}
