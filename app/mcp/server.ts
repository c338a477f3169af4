import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { Actor, TenantCtx, WithTenantCtx } from "../services/context";
import { AppError } from "../services/errors";
import { validationError } from "../services/validation";

type TenantRecord = TenantCtx["tenant"];
import { mayCall, mayUseMcpTools } from "../services/tools/authorise";
import type { ToolDescriptor } from "../services/tools/descriptor";
import { toolNamed, toolsOf } from "../services/tools/registry";

/** Who a session acts as: refreshed on every request (a changed role or a revocation takes effect at once). */
export interface McpIdentity {
  actor: Actor;
  tenant: TenantRecord | null;
}

/** What the MCP layer is built from: the one tenant-ctx assembler (leasing the tenant's handle per call) and a log. */
export interface McpDeps {
  withTenantCtx: WithTenantCtx;
  log(message: string): void;
}

export const SERVER_INFO = { name: "svc-mcp", version: "0.1.0" };

// JSON Schema (draft 2020-12) of each tool, computed once. Outputs are described in "input" mode, which leaves extra
// properties allowed: a tool answers the service's whole result, the schema names what a client may rely on.
const jsonSchema = (s: z.ZodType) => {
  const { $schema: _, ...rest } = z.toJSONSchema(s, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest as Tool["inputSchema"];
};
const describe = (t: ToolDescriptor): Tool => ({
  name: t.name,
  title: t.title,
  description: t.description,
  inputSchema: jsonSchema(t.input),
  outputSchema: jsonSchema(t.output),
  annotations: {
    title: t.title,
    readOnlyHint: t.readOnly,
    destructiveHint: t.destructive,
    ...(t.idempotent ? { idempotentHint: true } : {}),
    openWorldHint: false,
  },
});
const LISTED: Tool[] = toolsOf("mcp").map(describe);

const refusal = (message: string): CallToolResult => ({ isError: true, content: [{ type: "text", text: message }] });

/** A service error as an MCP tool error carrying the REST message (and the field errors), never a transport failure. */
function toolError(e: AppError): CallToolResult {
  const fields = e.fieldErrors?.map((f) => `${f.field}: ${f.message}`) ?? [];
  return refusal([e.message, ...fields].join("\n"));
}

/** One MCP server per session; its handlers read the session's current identity at each call. */
export function createMcpServer(deps: McpDeps, identity: () => McpIdentity): Server {
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions:
      "Tools of the process platform. Completing a task takes three calls: svc_run_task_claim, svc_run_task_preview (returns a confirmationToken), svc_run_task_complete with the same variables and the token.",
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mayUseMcpTools(identity().actor) ? LISTED : [] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { actor, tenant } = identity();
    const t = toolNamed(request.params.name);
    // An agent's tool is no MCP tool: unknown here, as a name no tool has.
    if (t?.surface !== "mcp") return refusal(`Unknown tool '${request.params.name}'`);
    if (!mayCall(t, { actor })) return refusal("MCP tools require the tenant ADMIN role or SUPER_ADMIN");
    if (!tenant) return refusal("No tenant selected: send the header X-Tenant-ID with the tenant's slug");
    const parsed = t.input.safeParse(request.params.arguments ?? {});
    if (!parsed.success) return toolError(validationError(parsed.error.issues));
    try {
      const out = await deps.withTenantCtx(tenant, actor, `mcp-${crypto.randomUUID()}`, (ctx) =>
        t.run({ ctx, input: parsed.data }),
      );
      // The service's answer as it is: the SDK serializes the message with JSON.stringify, which gives exactly what a
      // JSON round trip here would (dates as ISO strings, undefined left out), without copying the answer first.
      return { content: [{ type: "text", text: t.summary(out) }], structuredContent: out as Record<string, unknown> };
    } catch (e) {
      if (e instanceof AppError) return toolError(e);
      deps.log(`[mcp] ${t.name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return refusal("Internal error");
    }
  });
  return server;
}
