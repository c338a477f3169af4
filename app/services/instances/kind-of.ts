import type { TaskView } from "../../runtime/bpmn";
import type { TenantCtx } from "../context";
import { NotFoundError } from "../errors";

/** Which runtime owns a definition, an instance or a task: the process (BPMN) or the case (CMMN) runtime. */
export type Kind = "BPMN" | "CMMN";

/**
 * The one place the service layer learns BPMN or CMMN for an id or a key (routes never do); the runtime's
 * definitions store answers (and keeps the answer per version), `runtimeFor(kind)` then gives the runtime.
 */
export type KindCtx = TenantCtx<"processRuntime" | "caseRuntime">;

/** An instance id: a case of the tenant, else a process instance (unknown ids then answer 404 from the process side). */
export function kindOfInstance(ctx: KindCtx, instanceId: string): Kind {
  return ctx.caseRuntime.isCase(ctx.tenant.id, instanceId) ? "CMMN" : "BPMN";
}

/** A definition key (404 when the tenant has none); the type alone is read, this is on the start path. */
export function kindOfDefinition(ctx: KindCtx, key: string): Kind {
  const kind = ctx.processRuntime.kindOfDefinitionKey(ctx.tenant.id, key);
  if (!kind) throw new NotFoundError(`Definition '${key}' not found`);
  return kind;
}

/** A task: the shared task table holds both runtimes' tasks; its definition version tells which. */
export function kindOfTask(ctx: KindCtx, task: TaskView): Kind {
  return ctx.processRuntime.kindOfDefinition(ctx.tenant.id, task.definitionId) ?? "BPMN";
}
