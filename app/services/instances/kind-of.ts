import type { TaskView } from "../../runtime/bpmn";
import type { TenantCtx } from "../context";

/** Which runtime owns a definition, an instance or a task: the process (BPMN) or the case (CMMN) runtime. */
export type Kind = "BPMN" | "CMMN";

/**
 * The one place the service layer decides BPMN or CMMN for an id or a key (routes never do). TRANSITIONAL until the
 * runtime's `runtimeFor(kind)` lands: built over the façade methods alone (`caseRuntime.isCase`, the definition type).
 */
export type KindCtx = TenantCtx<"processRuntime" | "caseRuntime">;

// A deployed version never changes type, so the answer per definition id (and per key) can be kept.
const typeOfDefinitionId = new Map<string, Kind>();
const typeOfKey = new Map<string, Kind>();

function remember<K>(cache: Map<K, Kind>, key: K, kind: Kind): Kind {
  if (cache.size > 10_000) cache.clear();
  cache.set(key, kind);
  return kind;
}

/** An instance id: a case of the tenant, else a process instance (unknown ids then answer 404 from the process side). */
export function kindOfInstance(ctx: KindCtx, instanceId: string): Kind {
  return ctx.caseRuntime.isCase(ctx.tenant.id, instanceId) ? "CMMN" : "BPMN";
}

/** A definition key (404 when the tenant has none). Kept per key: the start of an instance asks it on the hot path. */
export function kindOfDefinition(ctx: KindCtx, key: string): Kind {
  const cacheKey = `${ctx.tenant.id}\u0000${key}`;
  const known = typeOfKey.get(cacheKey);
  if (known) return known;
  const type = ctx.processRuntime.definitionVersions(ctx.tenant.id, key)[0].type;
  return remember(typeOfKey, cacheKey, type === "CMMN" ? "CMMN" : "BPMN");
}

/** A task: the shared task table holds both runtimes' tasks; its definition version tells which. */
export function kindOfTask(ctx: KindCtx, task: TaskView): Kind {
  const known = typeOfDefinitionId.get(task.definitionId);
  if (known) return known;
  let version: { type: string } | undefined;
  try {
    version = ctx.processRuntime
      .definitionVersions(ctx.tenant.id, task.definitionKey)
      .find((v) => v.definitionId === task.definitionId);
  } catch {
    return "BPMN";
  }
  if (!version) return "BPMN";
  return remember(typeOfDefinitionId, task.definitionId, version.type === "CMMN" ? "CMMN" : "BPMN");
}
