import type { CaseView } from "../../runtime/cmmn";
import type { InstanceView, Page } from "../../runtime/bpmn";
import type { TenantCtx } from "../context";
import { peopleByIds } from "../people/people";
import { kindOfInstance } from "./kind-of";
import { byType, type TypeQuery } from "./merged-page";
import { visibilityOf } from "./visibility";
import type { InstanceFilter } from "../../runtime/bpmn/instance-filter";
import { hasFilter } from "./search-filter";

export type InstanceReadCtx = TenantCtx<"processRuntime" | "caseRuntime" | "platformDb">;
/** A process instance or a case, in the one summary shape both runtimes answer. */
export type InstanceSummary = InstanceView | CaseView;

/**
 * GET /a/instances?type= : running processes, cases, or both, newest first. With the cockpit's filters (state,
 * definition and version, business key, variable, start window): the process instances that match (the filters read
 * the process table; cases are listed unfiltered).
 */
export function listInstances({
  ctx,
  input,
}: {
  ctx: InstanceReadCtx;
  input: TypeQuery & InstanceFilter;
}): Page<InstanceSummary> {
  const [t, v] = [ctx.tenant.id, visibilityOf(ctx)];
  const { page, size, type, ...filter } = input;
  if (hasFilter(filter, type)) return ctx.processRuntime.searchInstances(t, v, filter, { page, size });
  return byType<InstanceSummary>(
    input,
    (page, size) => ctx.processRuntime.listInstances(t, v, { page, size }),
    (page, size) => ctx.caseRuntime.listCases(t, v, { page, size }),
    (r) => r.startTime,
  );
}

/** GET /a/instances/search: process instances holding a variable with that value, among those the caller sees. */
export function searchInstances({
  ctx,
  input,
}: {
  ctx: InstanceReadCtx;
  input: { varName: string; varValue: string; page?: number; size?: number };
}) {
  const { varName, varValue, ...page } = input;
  return ctx.processRuntime.searchInstancesByVariable(ctx.tenant.id, visibilityOf(ctx), varName, varValue, page);
}

/**
 * GET /a/instances/{id}: a process or a case, with variables; 404 when the caller takes no part. `startedByUser` names
 * who started it and each active task's `assigneeUser` its assignee (name and e-mail), so clients show names.
 */
export function instanceDetail({ ctx, input }: { ctx: InstanceReadCtx; input: { id: string } }) {
  const v = visibilityOf(ctx);
  const found =
    kindOfInstance(ctx, input.id) === "CMMN"
      ? ctx.caseRuntime.getCase(ctx.tenant.id, input.id, v)
      : ctx.processRuntime.getInstance(ctx.tenant.id, input.id, v);
  const tasks: { id: string; name: string; activityId: string; assignee: string | null }[] = found.activeTasks;
  const people = peopleByIds(ctx.platformDb, ctx.tenant.id, [found.startedBy, ...tasks.map((t) => t.assignee)]);
  const person = (id: string | null) => (id && people.get(id)) || null;
  return {
    ...found,
    startedByUser: person(found.startedBy),
    activeTasks: tasks.map((t) => ({ ...t, assigneeUser: person(t.assignee) })),
  };
}

/** GET /a/instances/{id}/diagram: SVG (or the BPMN on request) for a process; the CMMN XML for a case. */
export function instanceDiagram({
  ctx,
  input,
}: {
  ctx: InstanceReadCtx;
  input: { id: string; format?: "svg" | "xml" };
}): { body: string; type: string } {
  const v = visibilityOf(ctx);
  const [t, id] = [ctx.tenant.id, input.id];
  if (kindOfInstance(ctx, id) === "CMMN") {
    const c = ctx.caseRuntime.getCase(t, id, v);
    return {
      body: ctx.processRuntime.definitionXml(t, c.definitionKey, c.definitionId),
      type: "application/xml; charset=utf-8",
    };
  }
  if (input.format === "xml")
    return { body: ctx.processRuntime.diagramXml(t, id, v), type: "application/xml; charset=utf-8" };
  return { body: ctx.processRuntime.diagramSvg(t, id, v), type: "image/svg+xml" };
}
