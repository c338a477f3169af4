import type { DefinitionRecord, LoadedInstance, SubscriptionRecord, TaskRecord } from "./state";

/** What the engine reads from persistence; synchronous so a command's reads and writes stay close. */
export interface EngineStore {
  loadInstance(tenantId: string, instanceId: string): LoadedInstance | null;
  loadDefinition(definitionId: string): DefinitionRecord | null;
  /** the version new instances of `key` start: the published one, else the latest */
  startableDefinition(tenantId: string, key: string): DefinitionRecord | null;
  findSubscriptions(tenantId: string, type: SubscriptionRecord["type"], name: string): SubscriptionRecord[];
  findTask(tenantId: string, taskId: string): TaskRecord | null;
  /** Runs reads that belong together (a task, then its instance) as one snapshot; absent: one after the other. */
  together?<T>(read: () => T): T;
}
