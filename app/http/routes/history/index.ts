import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam, PageQuery } from "../../schemas";
import { historyActivities, historyAgentCalls, historyDetail, listHistory } from "../../../services/history/history";
import { PersonSchema } from "../../../services/people/people";
import { InstancePage, InstanceSchema } from "../instances/schema";
import { registerRetention } from "./retention";
import { registerAgentConversation } from "./agent-conversation";

const common = { tags: ["history"], security: tenantSecurity, middleware: requireAuth };
const HistoryQuery = PageQuery.extend({ type: z.enum(["BPMN", "CMMN"]).optional(), tenantId: z.string().optional() });
const ActivitySchema = z
  .object({
    id: z.string(),
    activityId: z.string(),
    activityName: z.string().nullable(),
    activityType: z.string(),
    startTime: z.string(),
    endTime: z.string().nullable(),
    durationMs: z.number().nullable(),
    who: z.string().nullable(),
    whoUser: PersonSchema.nullable().describe("the person `who` names, display name and e-mail (null for none)"),
    channel: z.string().nullable(),
    taskId: z.string().nullable(),
    outcome: z.string().nullable(),
  })
  .openapi("HistoricActivity");

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/history/instances",
  summary: "Completed instances the caller takes part in (paginated)",
  request: { query: HistoryQuery },
  responses: { 200: { description: "Page", ...json(InstancePage) }, ...errorResponses },
});
const detail = createRoute({
  ...common,
  method: "get",
  path: "/a/history/instances/{id}",
  summary: "Completed instance detail",
  request: { params: IdParam },
  responses: {
    200: {
      description: "Instance",
      ...json(
        InstanceSchema.extend({
          durationMs: z.number().nullable(),
          variables: z.record(z.string(), z.unknown()),
          tasks: z
            .array(z.any())
            .describe("the instance's tasks, oldest first, each with assigneeUser and completedByUser (name, e-mail)"),
        }),
      ),
    },
    ...errorResponses,
  },
});
const activities = createRoute({
  ...common,
  method: "get",
  path: "/a/history/instances/{id}/activities",
  summary: "Activity log of an instance",
  request: { params: IdParam },
  responses: { 200: { description: "Activities", ...json(z.array(ActivitySchema)) }, ...errorResponses },
});

const agentCalls = createRoute({
  ...common,
  method: "get",
  path: "/a/history/instances/{id}/agent-calls",
  summary: "Tool calls the AI agents made at the instance's steps (tool, arguments digest, outcome, duration)",
  request: { params: IdParam },
  responses: {
    200: {
      description: "Tool calls, oldest first",
      ...json(
        z.array(
          z.object({
            id: z.string(),
            activity: z.string().nullable(),
            agentKey: z.string(),
            tool: z.string(),
            argsDigest: z.string(),
            outcome: z.string(),
            detail: z.string().nullable(),
            durationMs: z.number().int(),
            turn: z.number().int().nullable().describe("an agent loop's turn (ad-hoc subprocess driven by an agent)"),
            tokens: z.number().int().nullable().describe("tool `model`: the tokens of that model call"),
            createdAt: z.string(),
          }),
        ),
      ),
    },
    ...errorResponses,
  },
});

/** /a/history: the tenant comes from the token; a `tenantId` query parameter is accepted and ignored. */
export function historyRouter() {
  const r = createRouter();
  registerRetention(r);
  r.openapi(list, (c) => c.json(listHistory({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(detail, (c) => c.json(historyDetail({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(activities, (c) => c.json(historyActivities({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(agentCalls, (c) => c.json(historyAgentCalls({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  registerAgentConversation(r);
  return r;
}
