import { z } from "zod";

/**
 * Shapes of definition results written once for both surfaces: the REST routes (app/http/routes/definitions, which
 * name them for OpenAPI) and the MCP tools (app/services/tools/mcp/process.ts, documentation.ts). Plain zod: services never
 * import the HTTP layer.
 */
export const DeployResultSchema = z.object({
  deploymentId: z.string(),
  definitions: z.array(
    z.object({
      key: z.string(),
      definitionId: z.string(),
      version: z.number().int(),
      name: z.string(),
      type: z.string(),
    }),
  ),
  warnings: z.array(z.string()),
});

export const FindingSchema = z.object({
  severity: z.enum(["error", "warning"]),
  code: z.enum(["ORPHAN", "DEAD_END", "GATEWAY_WITHOUT_DEFAULT", "MISSING_DIAGRAM", "NOT_DEPLOYABLE"]),
  elementId: z.string().nullable(),
  processId: z.string().nullable(),
  message: z.string(),
});
export const ValidationSchema = z.object({
  valid: z.boolean().describe("false only when a finding is an error (the model would not deploy)"),
  processes: z.array(z.string()),
  findings: z.array(FindingSchema),
  warnings: z.array(z.string()).describe("Other deploy warnings (XML, implementations)"),
});

export const ProcessDocSchema = z.object({
  key: z.string(),
  description: z.string().nullable().describe("null: no description yet"),
  updatedBy: z.string().nullable(),
  updatedAt: z.string().nullable(),
});
export const DocProposalSchema = z.object({
  key: z.string(),
  description: z.string(),
  current: z.string().nullable(),
  source: z.enum(["xml", "deployed"]),
  model: z.string().nullable(),
});
