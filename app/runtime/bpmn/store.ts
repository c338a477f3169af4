import type { Database } from "bun:sqlite";
import { readSnapshot } from "../../../db/read-snapshot";
import type {
  DefinitionRecord,
  EngineStore,
  LoadedInstance,
  SubscriptionRecord,
  TaskRecord,
} from "../../../engine/bpmn";
import type { ProcessModel } from "../../../engine/model/bpmn";
import type { DefinitionsStore } from "../kernel/definitions-store";
import {
  toExecution,
  toInstance,
  toJob,
  toSub,
  toTask,
  type ExecutionRow,
  type InstanceRow,
  type JobRow,
  type SubscriptionRow,
  type TaskRow,
  type VariableRow,
} from "../kernel/rows";

type Key2 = [string, string];

/** Reads of the engine over bun:sqlite prepared statements; parsed models come from the kernel's definitions cache. */
export function createSqliteStore(db: Database, definitions: DefinitionsStore): EngineStore {
  // `+tenant_id` keeps the planner on the instance index: the tenant-leading indexes would scan a whole tenant.
  const q = {
    instance: db.query<InstanceRow, Key2>("SELECT * FROM process_instances WHERE id = ? AND tenant_id = ?"),
    executions: db.query<ExecutionRow, Key2>("SELECT * FROM executions WHERE instance_id = ? AND +tenant_id = ?"),
    variables: db.query<Pick<VariableRow, "execution_id" | "name" | "value">, Key2>(
      "SELECT execution_id, name, value FROM variables WHERE instance_id = ? AND +tenant_id = ?",
    ),
    tasks: db.query<TaskRow, Key2>("SELECT * FROM tasks WHERE instance_id = ? AND +tenant_id = ? AND +state = 'OPEN'"),
    jobs: db.query<JobRow, Key2>("SELECT * FROM jobs WHERE instance_id = ? AND +tenant_id = ?"),
    subs: db.query<SubscriptionRow, Key2>("SELECT * FROM event_subscriptions WHERE instance_id = ? AND +tenant_id = ?"),
    subsByName: db.query<SubscriptionRow, [string, string, string]>(
      "SELECT * FROM event_subscriptions WHERE tenant_id = ? AND type = ? AND name = ? ORDER BY created_at",
    ),
    task: db.query<TaskRow, Key2>("SELECT * FROM tasks WHERE id = ? AND tenant_id = ?"),
  };
  const store: EngineStore = {
    // Six reads in one snapshot (readSnapshot): one WAL read lock instead of six.
    loadInstance: (tenantId: string, id: string): LoadedInstance | null =>
      readSnapshot(db, () => {
        const inst = q.instance.get(id, tenantId);
        if (!inst) return null;
        return {
          instance: toInstance(inst),
          executions: q.executions.all(id, tenantId).map(toExecution),
          variables: q.variables.all(id, tenantId).map((r) => ({
            executionId: r.execution_id,
            name: r.name,
            value: JSON.parse(r.value),
          })),
          tasks: q.tasks.all(id, tenantId).map(toTask),
          jobs: q.jobs.all(id, tenantId).map(toJob),
          subscriptions: q.subs.all(id, tenantId).map(toSub),
        };
      }),
    loadDefinition: (id: string): DefinitionRecord | null => definitions.definition<ProcessModel>(id),
    startableDefinition: (tenantId: string, key: string): DefinitionRecord | null =>
      definitions.startable<ProcessModel>(tenantId, key, "BPMN"),
    findSubscriptions(tenantId: string, type: SubscriptionRecord["type"], name: string): SubscriptionRecord[] {
      return q.subsByName.all(tenantId, type, name).map(toSub);
    },
    together: (read) => readSnapshot(db, read),
    findTask(tenantId: string, taskId: string): TaskRecord | null {
      const r = q.task.get(taskId, tenantId);
      return r ? toTask(r) : null;
    },
  };
  return store;
}
