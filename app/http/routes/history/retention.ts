import { createRoute, z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin } from "../../middleware/roles";
import { getRetention, putRetention } from "../../../services/history/retention";
import { TtlDays } from "../definitions/schema";
import type { AppEnv } from "../../env";

const RetentionSchema = z.object({ defaultHistoryTimeToLive: TtlDays }).openapi("HistoryRetention", {
  description: "The tenant default history time-to-live; a definition's own (its config) takes precedence",
});
const common = { tags: ["history"], security: tenantSecurity, middleware: requireAdmin };
const ok = { 200: { description: "Retention", ...json(RetentionSchema) }, ...errorResponses };

const get = createRoute({
  ...common,
  method: "get",
  path: "/a/history/retention",
  summary: "Tenant default history time-to-live (Admin)",
  responses: ok,
});
const put = createRoute({
  ...common,
  method: "put",
  path: "/a/history/retention",
  summary: "Set the tenant default history time-to-live in days, null to keep ended instances (Admin)",
  request: { body: { ...json(RetentionSchema), required: true } },
  responses: ok,
});

/** /a/history/retention: read and set the tenant default the history cleanup applies. */
export function registerRetention(r: OpenAPIHono<AppEnv>) {
  r.openapi(get, (c) => c.json(getRetention({ ctx: c.get("ctx") }), 200));
  r.openapi(put, async (c) => c.json(await putRetention({ ctx: c.get("ctx"), input: c.req.valid("json") }), 200));
}
