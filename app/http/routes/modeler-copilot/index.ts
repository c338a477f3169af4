import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import { SSE_HEADERS, sseStream } from "../../sse";
import { copilotStream } from "../../../services/modeler-copilot/copilot";

const CopilotBody = z
  .object({
    question: z.string().min(1),
    bpmnXml: z.string().optional().openapi({ description: "The model on the canvas (unsaved changes included)" }),
    processKey: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: "A deployed process: its latest XML and description" }),
    mode: z.enum(["explain", "propose", "forms"]).default("explain"),
  })
  .openapi("CopilotRequest");

const stream = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "post",
  path: "/a/modeler/copilot/stream",
  summary: "The modeler copilot's answer as server-sent events (Modeler; 402 quota, 409 no active model)",
  description:
    "Events: `delta` {text} for each piece of the answer (proposals carry BPMN XML fragments in ```xml blocks), then " +
    "`done` {chars}, or `error` {message} when the model fails mid-stream; comment lines are heartbeats.",
  request: { body: { ...json(CopilotBody), required: true } },
  responses: {
    200: { description: "Event stream", content: { "text/event-stream": { schema: z.string() } } },
    ...errorResponses,
  },
});

/** /a/modeler/copilot/stream */
export function modelerCopilotRouter() {
  const r = createRouter();
  r.openapi(stream, (c) => {
    const ctx = c.get("ctx");
    // Refusals (403, 400, 404, 409, 402) are thrown here, before the 200 and the first byte.
    const source = copilotStream({ ctx, input: c.req.valid("json") });
    return c.body(sseStream(source, ctx.settings.sseHeartbeatMs), 200, SSE_HEADERS);
  });
  return r;
}
