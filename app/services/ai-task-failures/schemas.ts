import { z } from "zod";

/** A failed AI step as GET /a/ai-task-failures and the MCP tool svc_run_why_failed answer it (one schema for both). */
export const FailureSchema = z.object({
  id: z.string(),
  engine: z.enum(["BPMN", "CMMN"]),
  processKey: z.string().describe("the case key on CMMN rows"),
  instanceId: z.string().nullable(),
  businessKey: z.string().nullable(),
  activity: z.string(),
  agentKey: z.string(),
  failureType: z
    .string()
    .describe(
      "MODEL_UNAVAILABLE, NO_ACTIVE_MODEL, TIMEOUT, QUOTA_EXCEEDED, INVALID_OUTPUT, TOOL_REFUSED, TOOL_STEPS_EXCEEDED, AGENT_NOT_FOUND, AGENT_NOT_IN_PROCESS, MODEL_CALLS_EXCEEDED, TOOL_CALLS_EXCEEDED, TOKENS_EXCEEDED",
    ),
  reason: z.string(),
  attemptCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
