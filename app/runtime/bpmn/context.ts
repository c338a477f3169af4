import type { Database } from "bun:sqlite";
import { immediate } from "../../../db/connection";
import {
  createBpmnEngine,
  Session,
  type BpmnEngine,
  type ChangeSet,
  type DecisionEvaluator,
  type DelegateRegistry,
  type EngineLogger,
  type EngineStore,
  type TaskRecord,
} from "../../../engine/bpmn";
import { ConflictError, RevisionConflict } from "../../../engine/errors";
import { createPersister } from "./persist";
import { createSqliteStore } from "./store";

export interface RuntimeHooks {
  onTaskCreated?(task: TaskRecord): void;
  /** Called after the commit for every instance the command ended (completed or cancelled), e.g. so a waiting case moves on. */
  onInstanceEnded?(tenantId: string, instanceId: string): unknown;
  formVersionFor?(tenantId: string, definitionKey: string, formKey: string): string | null;
}

export interface RuntimeOptions {
  db: Database;
  clock?: () => number;
  delegates?: DelegateRegistry;
  decisions?: DecisionEvaluator;
  hooks?: RuntimeHooks;
  logger?: EngineLogger;
}

/** Shared internals of the runtime's parts: connection, store, engine and the command runner. */
export interface RuntimeContext {
  db: Database;
  clock: () => number;
  store: EngineStore & { cacheDefinition: ReturnType<typeof createSqliteStore>["cacheDefinition"] };
  engine: BpmnEngine;
  delegates: DelegateRegistry;
  hooks: RuntimeHooks;
  logger: EngineLogger;
  newId: () => string;
  /** Runs an engine command and persists its changes in one BEGIN IMMEDIATE transaction; retried when an instance moved meanwhile. */
  command<T>(tenantId: string, fn: (s: Session) => Promise<T>): Promise<T>;
  tx<T>(fn: () => T): T;
}

const silent: EngineLogger = { info() {}, warn() {}, error() {} };

export function createRuntimeContext(opts: RuntimeOptions, delegates: DelegateRegistry): RuntimeContext {
  const db = opts.db;
  const clock = opts.clock ?? Date.now;
  const store = createSqliteStore(db);
  const persist = createPersister(db);
  const logger = opts.logger ?? silent;
  const hooks = opts.hooks ?? {};
  // Time-ordered ids keep every primary-key index append-only: random UUIDs dirty a random leaf page per insert.
  const newId = () => Bun.randomUUIDv7();
  // The working set of a busy engine (open instances, their tasks and jobs) should stay in the page cache.
  db.exec("PRAGMA cache_size = -65536");
  // Each checkpoint fsyncs; at the default 1000 pages a busy engine checkpoints every few dozen commands.
  db.exec("PRAGMA wal_autocheckpoint = 10000");
  const engine = createBpmnEngine({
    delegates,
    decisions: opts.decisions,
    formVersionFor: hooks.formVersionFor?.bind(hooks),
    logger,
    newId,
  });
  const commit = createGroupCommit(db, persist);
  const ctx: RuntimeContext = {
    db,
    clock,
    store,
    engine,
    delegates,
    hooks,
    logger,
    newId,
    tx: (fn) => immediate(db, fn),
    async command(tenantId, fn) {
      for (let attempt = 0; ; attempt++) {
        const session = new Session(store, tenantId, clock());
        const result = await fn(session);
        try {
          await commit(session.changes, tenantId);
        } catch (e) {
          if (e instanceof RevisionConflict) {
            if (attempt < 8) continue;
            throw new ConflictError(`Instance ${e.instanceId} keeps changing concurrently; try again`);
          }
          throw e;
        }
        if (hooks.onTaskCreated)
          for (const t of session.changes.createdTasks)
            if (t.state === "OPEN") {
              try {
                hooks.onTaskCreated(t);
              } catch (err) {
                logger.error("onTaskCreated hook failed", { error: String(err) });
              }
            }
        if (hooks.onInstanceEnded) {
          for (const { row } of session.changes.instances.values()) {
            if (row.state !== "COMPLETED" && row.state !== "CANCELLED") continue;
            try {
              await hooks.onInstanceEnded(tenantId, row.id);
            } catch (err) {
              logger.error("onInstanceEnded hook failed", { instanceId: row.id, error: String(err) });
            }
          }
        }
        return result;
      }
    },
  };
  return ctx;
}

interface Pending {
  changes: ChangeSet;
  tenantId: string;
  done: (err: unknown) => void;
}

/**
 * Group commit: the change sets of commands that finish computing in the same event-loop turn are written in one
 * BEGIN IMMEDIATE … COMMIT, each inside its own savepoint. A command that fails (revision conflict, constraint) rolls
 * back to its savepoint alone, so one command stays all or nothing; the others commit. One commit for many commands
 * writes each shared b-tree page once instead of once per command, which is where the time of a commit goes.
 * Every caller is resolved only after the COMMIT, so nothing is reported before it is durable.
 */
function createGroupCommit(db: Database, persist: (c: ChangeSet, tenantId: string) => void) {
  let queue: Pending[] = [];
  const one = db.transaction((p: Pending) => persist(p.changes, p.tenantId));
  const flush = () => {
    const batch = queue;
    queue = [];
    const outcomes: unknown[] = new Array(batch.length).fill(null);
    try {
      immediate(db, () => {
        for (let i = 0; i < batch.length; i++) {
          try {
            one(batch[i]);
          } catch (e) {
            outcomes[i] = e ?? new Error("command failed");
          }
        }
      });
    } catch (e) {
      outcomes.fill(e ?? new Error("commit failed"));
    }
    for (let i = 0; i < batch.length; i++) batch[i].done(outcomes[i]);
  };
  return (changes: ChangeSet, tenantId: string) =>
    new Promise<void>((resolve, reject) => {
      if (!queue.length) setImmediate(flush);
      queue.push({ changes, tenantId, done: (err) => (err ? reject(err) : resolve()) });
    });
}
