import type { Database } from "bun:sqlite";
import type {
  DefinitionRecord,
  EngineStore,
  LoadedInstance,
  SubscriptionRecord,
  TaskRecord,
} from "../../../engine/bpmn";
import type { ProcessModel } from "../../../engine/model/bpmn";
import { toExecution, toInstance, toJob, toSub, toTask, type Row } from "./rows";

/** Reads of the engine over bun:sqlite prepared statements; parsed models are cached per definition version. */
export function createSqliteStore(db: Database): EngineStore & { cacheDefinition(d: DefinitionRecord): void } {
  const models = new Map<string, DefinitionRecord>();
  // `+tenant_id` keeps the planner on the instance index: the tenant-leading indexes would scan a whole tenant.
  const q = {
    instance: db.query("SELECT * FROM process_instances WHERE id = ? AND tenant_id = ?"),
    executions: db.query("SELECT * FROM executions WHERE instance_id = ? AND +tenant_id = ?"),
    variables: db.query("SELECT execution_id, name, value FROM variables WHERE instance_id = ? AND +tenant_id = ?"),
    tasks: db.query("SELECT * FROM tasks WHERE instance_id = ? AND +tenant_id = ? AND +state = 'OPEN'"),
    jobs: db.query("SELECT * FROM jobs WHERE instance_id = ? AND +tenant_id = ?"),
    subs: db.query("SELECT * FROM event_subscriptions WHERE instance_id = ? AND +tenant_id = ?"),
    definition: db.query("SELECT id, tenant_id, key, name, version, model FROM definitions WHERE id = ?"),
    startable: db.query(
      "SELECT id FROM definitions WHERE tenant_id = ? AND key = ? AND type = 'BPMN' ORDER BY published DESC, version DESC LIMIT 1",
    ),
    subsByName: db.query(
      "SELECT * FROM event_subscriptions WHERE tenant_id = ? AND type = ? AND name = ? ORDER BY created_at",
    ),
    task: db.query("SELECT * FROM tasks WHERE id = ? AND tenant_id = ?"),
  };
  const store = {
    cacheDefinition(d: DefinitionRecord) {
      models.set(d.id, d);
    },
    loadInstance(tenantId: string, id: string): LoadedInstance | null {
      const inst = q.instance.get(id, tenantId) as Row | null;
      if (!inst) return null;
      return {
        instance: toInstance(inst),
        executions: (q.executions.all(id, tenantId) as Row[]).map(toExecution),
        variables: (q.variables.all(id, tenantId) as Row[]).map((r) => ({
          executionId: r.execution_id,
          name: r.name,
          value: JSON.parse(r.value),
        })),
        tasks: (q.tasks.all(id, tenantId) as Row[]).map(toTask),
        jobs: (q.jobs.all(id, tenantId) as Row[]).map(toJob),
        subscriptions: (q.subs.all(id, tenantId) as Row[]).map(toSub),
      };
    },
    loadDefinition(id: string): DefinitionRecord | null {
      const hit = models.get(id);
      if (hit) return hit;
      const r = q.definition.get(id) as Row | null;
      if (!r?.model) return null;
      const d: DefinitionRecord = {
        id: r.id,
        tenantId: r.tenant_id,
        key: r.key,
        name: r.name,
        version: r.version,
        model: JSON.parse(r.model) as ProcessModel,
      };
      models.set(id, d);
      return d;
    },
    startableDefinition(tenantId: string, key: string): DefinitionRecord | null {
      const r = q.startable.get(tenantId, key) as Row | null;
      return r ? store.loadDefinition(r.id) : null;
    },
    findSubscriptions(tenantId: string, type: SubscriptionRecord["type"], name: string): SubscriptionRecord[] {
      return (q.subsByName.all(tenantId, type, name) as Row[]).map(toSub);
    },
    findTask(tenantId: string, taskId: string): TaskRecord | null {
      const r = q.task.get(taskId, tenantId) as Row | null;
      return r ? toTask(r) : null;
    },
  };
  return store;
}
