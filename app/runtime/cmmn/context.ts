import type { TaskRow } from "../kernel/rows";
import type { Database } from "bun:sqlite";
import { CaseSession, type CaseEngineDeps, type TaskRecord } from "../../../engine/cmmn";
import type { Kernel } from "../kernel/kernel";
import { createCaseStore, type CaseStore } from "./store";

export interface CaseRuntimeHooks {
  formVersionFor?(tenantId: string, definitionKey: string, formKey: string): string | null;
  onTaskCreated?(task: TaskRecord): void;
}

export interface CaseRuntimeOptions {
  /** The engine database's kernel, shared with the process runtime. */
  kernel: Kernel;
  hooks?: CaseRuntimeHooks;
  decisions?: CaseEngineDeps["decisions"];
  processes?: CaseEngineDeps["startProcess"];
  /** Agent steps: the platform's attachments and its agent runner (app/platform/agent-wiring.ts). */
  attachedAgent?: CaseEngineDeps["attachedAgent"];
  runAgent?: CaseEngineDeps["runAgent"];
}

export interface CaseContext {
  kernel: Kernel;
  db: Database;
  clock: () => number;
  store: CaseStore;
  newId: () => string;
  /**
   * Runs an engine command on a fresh session and writes its changes all or nothing through the kernel's command runner
   * (`inTx` runs first, in the same transaction); retried when a case moved meanwhile.
   */
  command<T>(tenantId: string, fn: (s: CaseSession) => Promise<T>, inTx?: () => void): Promise<T>;
}

export function createCaseContext(opts: CaseRuntimeOptions): CaseContext {
  const { kernel } = opts;
  const { db, newId, clock } = kernel;
  const store = createCaseStore(db, kernel.definitions);
  const hooks = opts.hooks ?? {};
  const deps: CaseEngineDeps = {
    newId,
    loadCase: store.loadCase,
    startableDefinition: store.startableDefinition,
    formVersionFor: hooks.formVersionFor?.bind(hooks),
    decisions: opts.decisions,
    startProcess: opts.processes,
    attachedAgent: opts.attachedAgent,
    runAgent: opts.runAgent,
  };
  // Read back inside the write: an ended human task as stored, for the hooks (task.completed of cases).
  const taskRow = db.query<TaskRow, [string, string]>("SELECT * FROM tasks WHERE id = ? AND tenant_id = ?");
  return {
    kernel,
    db,
    clock,
    store,
    newId,
    async command(tenantId, fn, inTx) {
      const { result, session } = await kernel.runCommand({
        subject: "Case",
        open: (once) => new CaseSession(deps, tenantId, clock(), once),
        run: fn,
        write: (s) => {
          inTx?.();
          store.persist(s.changes);
          const completedTasks = s.changes.tasksEnded
            .filter((e) => e.state === "COMPLETED")
            .map((e) => taskRow.get(e.id, tenantId))
            .filter((r): r is TaskRow => r !== null);
          kernel.writeHooks.emit({ kind: "cmmn", tenantId, changes: s.changes, completedTasks });
        },
      });
      // After the commit: a notification must not undo (or precede) the committed command.
      if (hooks.onTaskCreated)
        for (const t of session.changes.tasksCreated) {
          try {
            hooks.onTaskCreated(t);
          } catch {
            /* a notification failure must not undo the committed command */
          }
        }
      return result;
    },
  };
}
