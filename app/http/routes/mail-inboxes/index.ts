import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { createInbox, deleteInbox, getInbox, listInboxes, updateInbox } from "../../../services/mail-inboxes/manage";
import { CreateInboxBody, InboxSchema, PatchInboxBody } from "./schema";

// Inboxes hold credentials: Admin only (Modelers see id, name and status under /a/mail-rules/inboxes).
const admin = { tags: ["mail inboxes"], security: tenantSecurity, middleware: requireAdmin };
const one = { 200: { description: "Inbox", ...json(InboxSchema) }, ...errorResponses };

const list = createRoute({
  ...admin,
  method: "get",
  path: "/a/mail-inboxes",
  summary: "Mail inboxes (Admin)",
  responses: { 200: { description: "Inboxes", ...json(z.array(InboxSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...admin,
  method: "post",
  path: "/a/mail-inboxes",
  summary: "Create an inbox; the credentials are tested first (400 with the server's answer) (Admin)",
  request: { body: { ...json(CreateInboxBody), required: true } },
  responses: { 201: { description: "Created", ...json(InboxSchema) }, ...errorResponses },
});
const getOne = createRoute({
  ...admin,
  method: "get",
  path: "/a/mail-inboxes/{id}",
  summary: "One inbox (Admin)",
  request: { params: IdParam },
  responses: one,
});
const patch = createRoute({
  ...admin,
  method: "patch",
  path: "/a/mail-inboxes/{id}",
  summary: "Change an inbox; the merged credentials are tested again (Admin)",
  request: { params: IdParam, body: { ...json(PatchInboxBody), required: true } },
  responses: one,
});
const remove = createRoute({
  ...admin,
  method: "delete",
  path: "/a/mail-inboxes/{id}",
  summary: "Delete an inbox (Admin)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

/** /a/mail-inboxes */
export function mailInboxesRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listInboxes({ ctx: c.get("ctx") }), 200));
  r.openapi(create, async (c) => c.json(await createInbox({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(getOne, (c) => c.json(getInbox({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(patch, async (c) =>
    c.json(await updateInbox({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 200),
  );
  r.openapi(remove, (c) => {
    deleteInbox({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
