import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { IdParam, PageQuery, pageSchema } from "../../schemas";
import { requireAuth } from "../../middleware/roles";
import { listNotifications, markAllRead, markRead } from "../../../services/notifications/inbox";

const NotificationSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    title: z.string(),
    body: z.string(),
    link: z.string().nullable(),
    read: z.boolean(),
    readAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi("Notification");
const ListQuery = PageQuery.extend({
  unread: z
    .enum(["true", "false"])
    .optional()
    .transform((v) => v === "true")
    .openapi({ description: "true = only unread" }),
});
// Every route is the caller's own: the user comes from the token; an API key is refused (403) by the service.
const common = { tags: ["notifications"], security: tenantSecurity, middleware: requireAuth };

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/notifications",
  summary: "The caller's notifications, newest first (default size 20, max 100)",
  request: { query: ListQuery },
  responses: {
    200: { description: "Page", ...json(pageSchema(NotificationSchema, "NotificationPage")) },
    ...errorResponses,
  },
});
const readAll = createRoute({
  ...common,
  method: "put",
  path: "/a/notifications/read-all",
  summary: "Mark all the caller's notifications read",
  responses: {
    200: { description: "How many changed", ...json(z.object({ updated: z.number().int() })) },
    ...errorResponses,
  },
});
const readOne = createRoute({
  ...common,
  method: "put",
  path: "/a/notifications/{id}/read",
  summary: "Mark one read; another user's answers 403",
  request: { params: IdParam },
  responses: { 200: { description: "Notification", ...json(NotificationSchema) }, ...errorResponses },
});

/** /a/notifications */
export function notificationsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listNotifications({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(readAll, (c) => c.json(markAllRead({ ctx: c.get("ctx") }), 200));
  r.openapi(readOne, (c) => c.json(markRead({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  return r;
}
