import { immediate } from "../../../db/connection";
import { writeGate } from "../../../db/write-gate";
import type { Database } from "bun:sqlite";
import type { EngineLogger } from "../../../engine/bpmn";
import { createCommandRunner, type CommandRunner } from "./command-runner";
import { createDefinitionsStore, type DefinitionsStore } from "./definitions-store";
import { createGroupCommit, type GroupCommit } from "./group-commit";
import { createExternalJobs, topicOf, type ExternalJobs } from "./external-jobs";
import { createJobAdmin } from "./job-admin";
import { createJobExecutor, EXTERNAL_JOB, type JobExecutor } from "./job-executor";
import { createRuntimeRegistry, type Runtimes } from "./runtime-for";
import { createWriteHooks, type WriteHooks } from "./write-hooks";

export interface KernelOptions {
  db: Database;
  clock?: () => number;
  logger?: EngineLogger;
}

/** What processes and cases share on one engine database. */
export interface Kernel {
  db: Database;
  clock: () => number;
  logger: EngineLogger;
  newId: () => string;
  nowIso: () => string;
  tx<T>(fn: () => T): T;
  /**
   * Resolves once a write may start without waiting on the checkpointer: while it holds the writes (the WAL's last
   * frames being copied, or a TRUNCATE), a write would wait for SQLite's lock in the busy handler, on the event loop.
   * Every writer outside the group commit calls it before its transaction (deploys, definition and instance changes,
   * the job executor and the job admin, robots, task assignments, comments, service jobs, the webhook outbox, the
   * history cleanup and its settings, a tenant's purge; docs/decisions.md lists them).
   */
  writable(): Promise<void>;
  commit: GroupCommit;
  runCommand: CommandRunner;
  definitions: DefinitionsStore;
  jobs: JobExecutor;
  jobAdmin: ReturnType<typeof createJobAdmin>;
  /** Robot jobs: claimed by runners over HTTP, with long polls woken by the commits that create work. */
  external: ExternalJobs;
  /** Run inside each runtime write's transaction (the webhook outbox registers one). */
  writeHooks: WriteHooks;
  /** Filled in by the adapters as they are built. */
  runtimes: Partial<Runtimes>;
  runtimeFor: ReturnType<typeof createRuntimeRegistry>["runtimeFor"];
}

const silent: EngineLogger = { info() {}, warn() {}, error() {} };

/**
 * The kernel of the engine database, built once by the platform's assembly with its clock and logger and handed to
 * the process and the case runtime (they share its group commit, so their commands commit together, its definitions
 * cache and its job executor), to the decision store, the webhook outbox, the service jobs and the tenant purge.
 * Each runtime registers itself in `runtimes` when it is built on it, so either can reach the other (`runtimeFor`).
 */
export function createKernel(opts: KernelOptions): Kernel {
  const { db } = opts;
  const clock = opts.clock ?? Date.now;
  // Time-ordered ids keep every primary-key index append-only: random UUIDs dirty a random leaf page per insert.
  const newId = () => Bun.randomUUIDv7();
  const nowIso = () => new Date(clock()).toISOString();
  const commit = createGroupCommit(db);
  const gate = writeGate(db);
  const registry = createRuntimeRegistry();
  const writeHooks = createWriteHooks();
  const k: Kernel = {
    db,
    clock,
    logger: opts.logger ?? silent,
    newId,
    nowIso,
    // A start's lookups are kept by the definitions store and forgotten inside the transaction that changes them; one
    // read again before that transaction ends keeps its uncommitted answer. A rolled-back transaction drops them all.
    tx: (fn) => {
      try {
        return immediate(db, fn);
      } catch (e) {
        k.definitions.forgetAll();
        throw e;
      }
    },
    writable: () => (gate.held ? gate.whenReleased() : Promise.resolve()),
    commit,
    runCommand: createCommandRunner(commit),
    definitions: createDefinitionsStore(db, newId, nowIso),
    jobs: createJobExecutor(db, clock, newId, () => k.logger, writeHooks),
    // A robot job put back by an operator wakes the runners waiting for its topic.
    jobAdmin: createJobAdmin(
      db,
      clock,
      () => k.writable(),
      (row) => {
        if (row.kind === EXTERNAL_JOB) k.external.wake(row.tenant_id, [topicOf(row)]);
      },
      () => k.jobs,
      newId,
    ),
    external: undefined as unknown as ExternalJobs,
    writeHooks,
    runtimes: registry.runtimes,
    runtimeFor: registry.runtimeFor,
  };
  k.external = createExternalJobs(k);
  return k;
}
