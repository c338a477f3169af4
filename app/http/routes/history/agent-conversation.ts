import { createRoute, z } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { agentConversation } from "../../../services/agents/loop/conversation";
import type { AppEnv } from "../../env";

const Call = z.object({ callId: z.string(), tool: z.string(), args: z.record(z.string(), z.unknown()) });
const LoopSchema = z
  .object({
    subProcessId: z.string(),
    agentKey: z.string(),
    state: z.enum(["RUNNING", "COMPLETED", "ENDED"]).describe("ENDED: the instance ended without the loop finishing"),
    tokens: z.number().int(),
    turns: z.array(
      z.object({
        turn: z.number().int(),
        results: z
          .array(
            z.object({
              callId: z.string(),
              tool: z.string(),
              ok: z.boolean(),
              value: z.unknown(),
              durationMs: z.number().int(),
            }),
          )
          .describe("the results of the previous turn's activities, given to this turn"),
        messages: z.array(z.unknown()).describe("what the turn added to the conversation (AI SDK model messages)"),
        calls: z.array(Call).describe("the activities the model called (run as activity instances)"),
        final: z.record(z.string(), z.unknown()).nullable().describe("the agent's outputs, when the loop ended here"),
        tokens: z.number().int(),
        durationMs: z.number().int(),
        createdAt: z.string(),
      }),
    ),
    waiting: z.array(Call.extend({ taskId: z.string().nullable() })).describe("calls of the last turn still running"),
  })
  .openapi("AgentConversation");

const route = createRoute({
  tags: ["history"],
  security: tenantSecurity,
  middleware: requireAuth,
  method: "get",
  path: "/a/history/instances/{id}/agent-conversation",
  summary: "The agent loops of an instance as conversations: turns, tool calls, results, what they wait for",
  request: { params: IdParam },
  responses: { 200: { description: "One entry per agent loop", ...json(z.array(LoopSchema)) }, ...errorResponses },
});

export function registerAgentConversation(r: OpenAPIHono<AppEnv>) {
  r.openapi(route, (c) => c.json(agentConversation({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
}
