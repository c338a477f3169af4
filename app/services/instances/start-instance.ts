import type { TenantCtx } from "../context";
import { requireFilled } from "../forms/required-check";
import { formForVersion, formVersionFor } from "../forms/task-forms";
import { resolveBusinessKey } from "./business-key";
import { kindOfDefinition } from "./kind-of";
import { visibilityOf } from "./visibility";
import { admitted } from "../admission";

export type StartInstanceCtx = TenantCtx<"processRuntime" | "caseRuntime" | "platformDb" | "db">;

export interface StartRequest {
  definitionKey: string;
  businessKey?: string | null;
  variables?: Record<string, unknown>;
}

export const startInstance = admitted(startInstanceNow);
/**
 * The start form's required fields, checked as a task's are: the form named by the startable version's start event (or
 * case plan model) in the version a task created now would lock (published, else latest). No such form: no check.
 */
function checkStartForm(ctx: StartInstanceCtx, definitionKey: string, variables: Record<string, unknown>): void {
  const formKey = ctx.processRuntime.getDefinition(ctx.tenant.id, definitionKey).startFormKey;
  if (!formKey) return;
  const versionId = formVersionFor(ctx.db, definitionKey, formKey);
  const form = versionId ? formForVersion(ctx.db, versionId) : null;
  if (form) requireFilled(form.schema, variables);
}

/**
 * POST /a/instances (and every other start a caller asks for: API keys, MCP, mail rules): resolves the business key (request, definition template, system default), starts the published
 * version (latest if never published) and answers the tasks open right after the start that the caller may see.
 */
async function startInstanceNow({ ctx, input }: { ctx: StartInstanceCtx; input: StartRequest }) {
  const rt = ctx.processRuntime;
  const tenantId = ctx.tenant.id;
  const variables = input.variables ?? {};
  const isCase = kindOfDefinition(ctx, input.definitionKey) === "CMMN"; // 404 for an unknown key, before anything else
  checkStartForm(ctx, input.definitionKey, variables); // 400 before anything is written
  const businessKey = resolveBusinessKey(
    input.businessKey,
    rt.businessKeyTemplate(tenantId, input.definitionKey),
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
  // A process start answers its tasks whole (from the command's own changes); a case start names them, so they are read.
  const { started, tasks } = isCase
    ? await ctx.caseRuntime.startCase(tenantId, start).then((c) => ({
        started: c,
        tasks: c.activeTasks.map((t) => rt.getTask(tenantId, t.id)),
      }))
    : await rt.startInstance(tenantId, start).then((p) => ({ started: p, tasks: p.activeTasks }));
  const v = visibilityOf(ctx);
  const visible = tasks.filter((t) => rt.isTaskVisible(t, v));
  return {
    id: started.id,
    businessKey: started.businessKey,
    definitionKey: started.definitionKey,
    definitionId: started.definitionId,
    version: started.version,
    type: started.type,
    startTime: started.startTime,
    ended: started.ended,
    activeTasks: visible.map((t) => ({ id: t.id, name: t.name, activityId: t.activityId, assignee: t.assignee })),
  };
}
