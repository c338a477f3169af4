import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth, requireManager } from "../../middleware/roles";
import {
  listMilestones,
  listPlanItems,
  runPlanItemCommand,
  type PlanItemCommand,
} from "../../../services/case-plan-items/plan-items";
import { CaseParam, MilestoneSchema, PlanItemParam, PlanItemSchema, PlanItemsQuery } from "./schema";

const common = { tags: ["cases"], security: tenantSecurity };

const list = createRoute({
  ...common,
  middleware: requireAuth,
  method: "get",
  path: "/a/instances/{id}/plan-items",
  summary: "Live plan items of a case with the actions the caller may take",
  request: { params: CaseParam, query: PlanItemsQuery },
  responses: { 200: { description: "Plan items", ...json(z.array(PlanItemSchema)) }, ...errorResponses },
});
const milestones = createRoute({
  ...common,
  middleware: requireAuth,
  method: "get",
  path: "/a/instances/{id}/milestones",
  summary: "Milestones the case has reached",
  request: { params: CaseParam },
  responses: { 200: { description: "Milestones", ...json(z.array(MilestoneSchema)) }, ...errorResponses },
});
const command = (cmd: PlanItemCommand, summary: string) =>
  createRoute({
    ...common,
    middleware: cmd === "complete-stage" ? requireManager : requireAuth,
    method: "post",
    path: `/a/instances/{id}/plan-items/{planItemId}/${cmd}`,
    summary,
    request: { params: PlanItemParam },
    responses: {
      200: { description: "The plan item after the transition", ...json(PlanItemSchema) },
      ...errorResponses,
    },
  });
const COMMANDS: Array<[PlanItemCommand, string]> = [
  ["start", "Start an offered (enabled) step"],
  ["disable", "Discard an optional (enabled) step"],
  ["enable", "Offer a discarded step again"],
  ["trigger", "Fire a waiting user event (or trigger a blocking task)"],
  ["complete-stage", "Close a stage, ending the optional steps still offered in it (Manager)"],
  ["reactivate", "Run a failed AI agent step again (409 unless the item is a failed agent step)"],
];

/** /a/instances/{id}/plan-items, /milestones and the plan item transitions of cases */
export function casePlanItemsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => {
    const input = { caseId: c.req.valid("param").id, includeEnded: c.req.valid("query").includeEnded === "true" };
    return c.json(listPlanItems({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(milestones, (c) =>
    c.json(listMilestones({ ctx: c.get("ctx"), input: { caseId: c.req.valid("param").id } }), 200),
  );
  for (const [cmd, summary] of COMMANDS) {
    r.openapi(command(cmd, summary), async (c) => {
      const p = c.req.valid("param");
      const input = { caseId: p.id, planItemId: p.planItemId, command: cmd };
      return c.json(await runPlanItemCommand({ ctx: c.get("ctx"), input }), 200);
    });
  }
  return r;
}
