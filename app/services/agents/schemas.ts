import { z } from "zod";
import { AGENT_TOOLS, OUTPUT_TYPES } from "./store";

/**
 * The shapes of agents, written once for both surfaces: the REST route (app/http/routes/agents, which names them for
 * OpenAPI) and the MCP tools (app/services/tools/mcp/agents.ts). Plain zod: services never import the HTTP layer.
 */
const Clearance = z.enum(["PUBLIC", "SECRET", "TOP_SECRET"]);
const Key = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/, "letters, digits, _ . - ; starting with a letter");

/** One MCP server an agent may use (by its registered name), with all its tools or only those listed. */
const McpServerUse = z
  .object({
    server: z.string().min(1).max(32),
    tools: z
      .array(z.string().min(1).max(128))
      .max(64)
      .nullable()
      .optional()
      .describe("the server's tool names the agent may call; absent or null = all of them"),
  })
  .strict();

export const AgentBody = z.object({
  key: Key,
  name: z.string().trim().min(1).max(200),
  processKey: z.string().min(1).nullable().optional(),
  isGlobal: z.boolean().optional(),
  modelId: z.string().min(1),
  instructions: z.string().min(1).max(20_000),
  tools: z.array(z.enum(AGENT_TOOLS)).max(AGENT_TOOLS.length).optional(),
  knowledgeBaseIds: z.array(z.string().min(1)).max(20).optional(),
  mcpServers: z
    .array(McpServerUse)
    .max(10)
    .optional()
    .describe("registered MCP servers allowed for the agent's tenant whose tools it may call (as mcp_<server>_<tool>)"),
  cmsClearance: Clearance.optional().describe("default PUBLIC"),
  outputVariables: z
    .array(
      z.object({ name: z.string().min(1).max(255), type: z.enum(OUTPUT_TYPES), description: z.string().optional() }),
    )
    .max(100)
    .optional(),
  limits: z
    .object({
      maxToolSteps: z.number().int().min(0).max(50).optional(),
      timeoutMs: z.number().int().min(100).max(600_000).optional(),
      maxModelCalls: z.number().int().min(1).max(200).optional().describe("agent loops: model calls (default 20)"),
      maxToolCalls: z.number().int().min(0).max(500).optional().describe("agent loops: tool calls (default 30)"),
      maxTokens: z.number().int().min(1).max(10_000_000).optional().describe("agent loops: tokens (default 200000)"),
      maxWallMs: z
        .number()
        .int()
        .min(1000)
        .max(30 * 24 * 3600_000)
        .optional()
        .describe("agent loops: time from start to the last turn (default 7 days)"),
    })
    .optional(),
});

export const AgentSchema = z.object({
  id: z.string(),
  key: z.string(),
  name: z.string(),
  processKey: z.string().nullable(),
  isGlobal: z.boolean(),
  modelId: z.string(),
  instructions: z.string(),
  tools: z.array(z.string()),
  knowledgeBaseIds: z.array(z.string()),
  mcpServers: z.array(z.object({ server: z.string(), tools: z.array(z.string()).nullable() })),
  cmsClearance: Clearance,
  outputVariables: z.array(z.object({ name: z.string(), type: z.string(), description: z.string().optional() })),
  limits: z.object({
    maxToolSteps: z.number().int(),
    timeoutMs: z.number().int(),
    maxModelCalls: z.number().int(),
    maxToolCalls: z.number().int(),
    maxTokens: z.number().int(),
    maxWallMs: z.number().int(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const StepBody = z.object({ processKey: z.string().min(1), activityId: z.string().min(1) });
export const AttachmentSchema = z.object({
  processKey: z.string(),
  activityId: z.string(),
  agentKey: z.string(),
  createdAt: z.string(),
});
export const SuggestBody = z.object({
  text: z.string().min(1).max(5000),
  limit: z.number().int().min(1).max(20).optional(),
});
export const SuggestionSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isGlobal: z.boolean(),
  score: z.number(),
});
export { Clearance };
