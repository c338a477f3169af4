import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAdmin, requireModeler } from "../../middleware/roles";
import { listAiModels } from "../../../services/ai-models/models";
import { listTenantMcpServers, listTenantMcpTools } from "../../../services/agents/mcp-catalogue";
import { companyAiUsage } from "../../../services/ai-models/usage";
import { UsageSchema } from "../admin-tenants/ai-quota";

const ModelsSchema = z
  .object({
    active: z.boolean().openapi({ description: "false: no active model (AI features answer 409)" }),
    chatModel: z.string().nullable(),
    embeddingModel: z.string().nullable(),
    models: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(["chat", "embedding"]),
        provider: z.string(),
        contextSize: z.number().int().nullable(),
      }),
    ),
  })
  .openapi("AiModels");

const list = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "get",
  path: "/a/ai/models",
  summary: "The configured models (Modeler); empty when no model is active",
  responses: { 200: { description: "Catalogue", ...json(ModelsSchema) }, ...errorResponses },
});

const McpServerSummary = z
  .object({ name: z.string(), description: z.string().nullable() })
  .openapi("McpServerForAgents");
const McpToolSummary = z
  .object({
    name: z.string().openapi({ description: "the name the server gives it (what an agent's tool list names)" }),
    description: z.string().nullable(),
    offeredAs: z.string().openapi({ description: "the name a model is offered: mcp_<server>_<tool>, sanitized" }),
  })
  .openapi("McpToolForAgents");
const mcpServersRoute = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "get",
  path: "/a/ai/mcp-servers",
  summary: "The registered MCP servers this tenant's agents may use (Modeler)",
  responses: { 200: { description: "Servers", ...json(z.array(McpServerSummary)) }, ...errorResponses },
});
const mcpToolsRoute = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireModeler,
  method: "get",
  path: "/a/ai/mcp-servers/{name}/tools",
  summary: "A server's tools as discovered now (tools/list); 404 unless the tenant may use it, 503 when it is down",
  request: { params: z.object({ name: z.string().openapi({ param: { name: "name", in: "path" } }) }) },
  responses: { 200: { description: "Tools", ...json(z.array(McpToolSummary)) }, ...errorResponses },
});

const usage = createRoute({
  tags: ["ai"],
  security: tenantSecurity,
  middleware: requireAdmin,
  method: "get",
  path: "/a/ai/usage",
  summary: "The company's AI quota and this month's use by feature and by person (Admin)",
  responses: {
    200: {
      description: "Usage",
      ...json(
        UsageSchema.extend({
          monthlyTokens: z.number().int().nullable().openapi({ description: "null: never configured (AI refused)" }),
        }).openapi("CompanyAiUsage"),
      ),
    },
    ...errorResponses,
  },
});

/** /a/ai/models, /a/ai/mcp-servers, /a/ai/usage */
export function aiModelsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listAiModels({ ctx: c.get("ctx") }), 200));
  r.openapi(mcpServersRoute, (c) => c.json(listTenantMcpServers({ ctx: c.get("ctx") }), 200));
  r.openapi(mcpToolsRoute, async (c) =>
    c.json(await listTenantMcpTools({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(usage, (c) => c.json(companyAiUsage({ ctx: c.get("ctx") }), 200));
  return r;
}
