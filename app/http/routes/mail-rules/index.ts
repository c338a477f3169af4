import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { createRule, deleteRule, getRule, listRules, updateRule } from "../../../services/mail-rules/manage";
import { inboxSummaries } from "../../../services/mail-inboxes/manage";
import { InboxSummarySchema } from "../mail-inboxes/schema";
import { CreateRuleBody, PatchRuleBody, RuleListQuery, RuleSchema } from "./schema";

const modeler = { tags: ["mail rules"], security: tenantSecurity, middleware: requireModeler };
const one = { 200: { description: "Rule", ...json(RuleSchema) }, ...errorResponses };

const inboxes = createRoute({
  ...modeler,
  method: "get",
  path: "/a/mail-rules/inboxes",
  summary: "Inboxes a rule may name: id, name and status only (Modeler)",
  responses: { 200: { description: "Inboxes", ...json(z.array(InboxSummarySchema)) }, ...errorResponses },
});
const list = createRoute({
  ...modeler,
  method: "get",
  path: "/a/mail-rules",
  summary: "Mail rules in the order they are tried (Modeler)",
  request: { query: RuleListQuery },
  responses: { 200: { description: "Rules", ...json(z.array(RuleSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...modeler,
  method: "post",
  path: "/a/mail-rules",
  summary: "Create a rule starting a definition (Modeler)",
  request: { body: { ...json(CreateRuleBody), required: true } },
  responses: { 201: { description: "Created", ...json(RuleSchema) }, ...errorResponses },
});
const getOne = createRoute({
  ...modeler,
  method: "get",
  path: "/a/mail-rules/{id}",
  summary: "One rule (Modeler)",
  request: { params: IdParam },
  responses: one,
});
const patch = createRoute({
  ...modeler,
  method: "patch",
  path: "/a/mail-rules/{id}",
  summary: "Change a rule (Modeler)",
  request: { params: IdParam, body: { ...json(PatchRuleBody), required: true } },
  responses: one,
});
const remove = createRoute({
  ...modeler,
  method: "delete",
  path: "/a/mail-rules/{id}",
  summary: "Delete a rule (Modeler)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/mail-rules (the fixed path /inboxes is registered before /{id}). */
export function mailRulesRouter() {
  const r = createRouter();
  r.openapi(inboxes, (c) => c.json(inboxSummaries({ ctx: c.get("ctx") }), 200));
  r.openapi(list, (c) => c.json(listRules({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(create, (c) => c.json(createRule({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(getOne, (c) => c.json(getRule({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(patch, (c) =>
    c.json(updateRule({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 200),
  );
  r.openapi(remove, (c) => {
    deleteRule({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
