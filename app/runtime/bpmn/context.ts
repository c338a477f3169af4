import type { Database } from "bun:sqlite";
import {
  createBpmnEngine,
  Session,
  type BpmnEngine,
  type DecisionEvaluator,
  type DelegateRegistry,
  type EngineLogger,
  type EngineStore,
  type TaskRecord,
} from "../../../engine/bpmn";
import type { Kernel } from "../kernel/kernel";
import { createJsSandbox } from "../scripting/js-sandbox";
import type { ScriptSandbox } from "../../../engine/bpmn/deps";
import type { AgentLoopPort } from "../../../engine/bpmn/agent-loop-types";
import { createPersister } from "./persist";
import { createSqliteStore } from "./store";

export interface RuntimeHooks {
  onTaskCreated?(task: TaskRecord): void;
  /** Called after the commit for every instance the command ended (completed or cancelled), e.g. so a waiting case moves on. */
  onInstanceEnded?(tenantId: string, instanceId: string, parentInstanceId: string | null): unknown;
  formVersionFor?(tenantId: string, definitionKey: string, formKey: string): string | null;
}

export interface RuntimeOptions {
  /** The engine database's kernel (its connection, clock and logger), shared with the case runtime. */
  kernel: Kernel;
  delegates?: DelegateRegistry;
  decisions?: DecisionEvaluator;
  hooks?: RuntimeHooks;
  /** JavaScript in models; default: the QuickJS sandbox on the process's script pool of the default size */
  scripts?: ScriptSandbox;
  /** The agent the platform attached to a step (agent attachments), for steps the model does not name one at. */
  attachedAgent?: (tenantId: string, definitionKey: string, activityId: string) => string | undefined;
  /** Runs the turns of agent loops over ad-hoc subprocesses (the agents service). */
  agentLoop?: AgentLoopPort;
}

/** Shared internals of the process runtime's parts: the kernel, the engine's store and the engine. */
export interface RuntimeContext {
  kernel: Kernel;
  db: Database;
  clock: () => number;
  store: EngineStore;
  engine: BpmnEngine;
  delegates: DelegateRegistry;
  hooks: RuntimeHooks;
  logger: EngineLogger;
  newId: () => string;
  /**
   * Runs an engine command and persists its changes all or nothing through the kernel's command runner; `alsoWrite`
   * runs first inside the same transaction: checks (a robot's lock still held) or writes outside the engine's state.
   */
  command<T>(tenantId: string, fn: (s: Session) => Promise<T>, alsoWrite?: (s: Session) => void): Promise<T>;
  tx<T>(fn: () => T): T;
}

export function createRuntimeContext(opts: RuntimeOptions, delegates: DelegateRegistry): RuntimeContext {
  const { kernel } = opts;
  const { db, newId, clock } = kernel;
  const store = createSqliteStore(db, kernel.definitions);
  const persist = createPersister(db);
  const logger = kernel.logger;
  const hooks = opts.hooks ?? {};
  const engine = createBpmnEngine({
    delegates,
    decisions: opts.decisions,
    formVersionFor: hooks.formVersionFor?.bind(hooks),
    attachedAgent: opts.attachedAgent,
    agentLoop: opts.agentLoop,
    logger,
    scripts: opts.scripts ?? createJsSandbox(),
    newId,
  });
  // Hooks run after the commit: a notification or a waiting case must never see work that could still roll back.
  const afterCommit = async (tenantId: string, s: Session) => {
    if (hooks.onTaskCreated)
      for (const t of s.changes.createdTasks)
        if (t.state === "OPEN") {
          try {
            hooks.onTaskCreated(t);
          } catch (err) {
            logger.error("onTaskCreated hook failed", { error: String(err) });
          }
        }
    if (!hooks.onInstanceEnded) return;
    for (const { row } of s.changes.instances.values()) {
      if (row.state !== "COMPLETED" && row.state !== "CANCELLED") continue;
      try {
        await hooks.onInstanceEnded(tenantId, row.id, row.parentInstanceId);
      } catch (err) {
        logger.error("onInstanceEnded hook failed", { instanceId: row.id, error: String(err) });
      }
    }
  };
  return {
    kernel,
    db,
    clock,
    store,
    engine,
    delegates,
    hooks,
    logger,
    newId,
    tx: kernel.tx,
    async command(tenantId, fn, alsoWrite) {
      const { result, session } = await kernel.runCommand({
        subject: "Instance",
        open: (once) => new Session(store, tenantId, clock(), once),
        run: fn,
        write: (s) => {
          alsoWrite?.(s);
          persist(s.changes, tenantId);
          kernel.writeHooks.emit({ kind: "bpmn", tenantId, changes: s.changes });
        },
      });
      await afterCommit(tenantId, session);
      return result;
    },
  };
}
