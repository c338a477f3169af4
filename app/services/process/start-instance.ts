import { engineHandlesOf, type RequestCtx } from "../context";
import { resolveBusinessKey } from "../instances/business-key";
import { visibilityOf } from "./visibility";

export interface StartRequest {
  definitionKey: string;
  businessKey?: string | null;
  variables?: Record<string, unknown>;
}

/**
 * POST /a/instances: resolves the business key (request, definition template, system default), starts the published
 * version (latest if never published) and answers the tasks open right after the start that the caller may see.
 */
export async function startInstance(ctx: RequestCtx, input: StartRequest) {
  const rt = ctx.processRuntime;
  const tenantId = ctx.tenant.id;
  const variables = input.variables ?? {};
  const config = rt.getDefinitionConfig(tenantId, input.definitionKey);
  const businessKey = resolveBusinessKey(
    input.businessKey,
    config.businessKeyTemplate,
    variables,
    new Date(ctx.clock.now()),
  );
  const start = {
    definitionKey: input.definitionKey,
    businessKey,
    variables,
    startedBy: ctx.actor.userId,
    channel: ctx.actor.channel,
  };
  // The type alone, not the definition summary (which reads every version and parses a model) on this hot path.
  const kind = engineHandlesOf(ctx)
    .engineSqlite.query("SELECT type FROM definitions WHERE tenant_id = ? AND key = ? LIMIT 1")
    .get(tenantId, input.definitionKey) as { type: string } | null;
  const isCase = kind?.type === "CMMN";
  const started = isCase ? await ctx.caseRuntime.startCase(tenantId, start) : await rt.startInstance(tenantId, start);
  const v = visibilityOf(ctx);
  return {
    id: started.id,
    businessKey: started.businessKey,
    definitionKey: started.definitionKey,
    definitionId: started.definitionId,
    version: started.version,
    type: started.type,
    startTime: started.startTime,
    ended: started.ended,
    activeTasks: started.activeTasks
      .filter((t) => rt.isTaskVisible(rt.getTask(tenantId, t.id), v))
      .map((t) => ({ id: t.id, name: t.name, activityId: t.activityId, assignee: t.assignee })),
  };
}
