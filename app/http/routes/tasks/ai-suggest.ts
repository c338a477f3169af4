import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { suggestTaskValues } from "../../../services/tasks/ai-suggest";

const SuggestBody = z
  .object({
    draft: z
      .record(z.string(), z.unknown())
      .optional()
      .openapi({ description: "The form as it stands on screen; without it only saved variables are seen" }),
  })
  .openapi("AiSuggestRequest");
const SuggestionSchema = z
  .object({
    field: z.string(),
    value: z.unknown(),
    reason: z.string(),
    conflictsWithCurrent: z.boolean().openapi({
      description: "true: the field already holds a different value; a client never applies it on its own",
    }),
  })
  .openapi("Suggestion");

const suggest = createRoute({
  tags: ["tasks"],
  security: tenantSecurity,
  middleware: requireAuth,
  method: "post",
  path: "/a/tasks/{id}/ai-suggest",
  summary: "AI suggestions for the task's form fields; nothing is written (409 with no active model)",
  request: { params: IdParam, body: { ...json(SuggestBody), required: false } },
  responses: { 200: { description: "Suggestions", ...json(z.array(SuggestionSchema)) }, ...errorResponses },
});

export function registerTaskAiSuggest(r: OpenAPIHono<AppEnv>) {
  r.openapi(suggest, async (c) => {
    // The body is optional: no body (or an empty draft) means only the saved variables are seen.
    const body = (c.req.header("content-type") ?? "").includes("json") ? c.req.valid("json") : {};
    const input = { taskId: c.req.valid("param").id, draft: body.draft };
    return c.json(await suggestTaskValues({ ctx: c.get("ctx"), input }), 200);
  });
}
