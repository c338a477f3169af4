import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import { createAgent, deleteAgent, getAgent, listAgents, updateAgent } from "../../../services/agents/agents";
import { attachAgent, detachAgent, listAgentAttachments } from "../../../services/agents/attachments";
import { suggestKnowledge } from "../../../services/agents/suggest-knowledge";
import { runPlayground } from "../../../services/agents/playground";
import {
  AgentBody,
  AgentSchema,
  AttachmentSchema,
  KeyParam,
  PlaygroundBody,
  PlaygroundResult,
  StepBody,
  SuggestBody,
  SuggestionSchema,
} from "./schema";

// Agents are modelling work: Modeler or Admin; USER, MANAGER alone and API keys get 403.
const common = { tags: ["agents"], security: tenantSecurity, middleware: requireModeler };
const r200 = <T extends z.ZodTypeAny>(d: string, s: T) => ({ 200: { description: d, ...json(s) }, ...errorResponses });

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/agents",
  summary: "The tenant's agents and the global ones",
  responses: r200("Agents", z.array(AgentSchema)),
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/a/agents",
  summary: "Create an agent (isGlobal only SUPER_ADMIN; 409 with no active model or a taken key)",
  request: { body: { ...json(AgentBody), required: true } },
  responses: { 201: { description: "Created", ...json(AgentSchema) }, ...errorResponses },
});
const detail = createRoute({
  ...common,
  method: "get",
  path: "/a/agents/{key}",
  summary: "An agent",
  request: { params: KeyParam },
  responses: r200("Agent", AgentSchema),
});
const update = createRoute({
  ...common,
  method: "put",
  path: "/a/agents/{key}",
  summary: "Replace an agent's definition (a global one only SUPER_ADMIN)",
  request: { params: KeyParam, body: { ...json(AgentBody.omit({ key: true, isGlobal: true })), required: true } },
  responses: r200("Agent", AgentSchema),
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/a/agents/{key}",
  summary: "Delete an agent (409 while attached to a step)",
  request: { params: KeyParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const attachments = createRoute({
  ...common,
  method: "get",
  path: "/a/agents/{key}/attachments",
  summary: "Steps the agent is attached to",
  request: { params: KeyParam },
  responses: r200("Attachments", z.array(AttachmentSchema)),
});
const attach = createRoute({
  ...common,
  method: "put",
  path: "/a/agents/{key}/attachments",
  summary: "Attach the agent to a step (process key, activity id); a step holds one agent",
  request: { params: KeyParam, body: { ...json(StepBody), required: true } },
  responses: r200("Attached", AttachmentSchema),
});
const detach = createRoute({
  ...common,
  method: "delete",
  path: "/a/agents/{key}/attachments",
  summary: "Detach the agent from a step",
  request: { params: KeyParam, query: StepBody },
  responses: { 204: { description: "Detached" }, ...errorResponses },
});
const suggest = createRoute({
  ...common,
  method: "post",
  path: "/a/agents/knowledge-suggestions",
  summary: "Existing knowledge bases relevant to a step's description, best first",
  request: { body: { ...json(SuggestBody), required: true } },
  responses: r200("Suggestions", z.array(SuggestionSchema)),
});
const playground = createRoute({
  ...common,
  method: "post",
  path: "/a/agents/{key}/playground",
  summary: "Run the agent on inputs without an instance (CMS clearance: the lower of the user's and the agent's)",
  request: { params: KeyParam, body: { ...json(PlaygroundBody), required: true } },
  responses: r200("Outputs", PlaygroundResult),
});

/** /a/agents: AI agents, their step attachments, knowledge suggestions and the playground. */
export function agentsRouter() {
  const r = createRouter();
  r.openapi(suggest, (c) => c.json(suggestKnowledge({ ctx: c.get("ctx"), input: c.req.valid("json") }), 200));
  r.openapi(list, (c) => c.json(listAgents({ ctx: c.get("ctx") }), 200));
  r.openapi(create, (c) => c.json(createAgent({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(detail, (c) => c.json(getAgent({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(update, (c) => {
    const { key } = c.req.valid("param");
    return c.json(updateAgent({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), key, currentKey: key } }), 200);
  });
  r.openapi(remove, (c) => {
    deleteAgent({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(attachments, (c) => c.json(listAgentAttachments({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(attach, (c) =>
    c.json(attachAgent({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 200),
  );
  r.openapi(detach, (c) => {
    detachAgent({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("query") } });
    return c.body(null, 204);
  });
  r.openapi(playground, async (c) =>
    c.json(await runPlayground({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 200),
  );
  return r;
}
