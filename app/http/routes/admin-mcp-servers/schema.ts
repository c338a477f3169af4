import { z } from "@hono/zod-openapi";

export const McpServerSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    url: z.string(),
    authHeaderName: z.string().nullable(),
    authHeaderSet: z
      .boolean()
      .openapi({ description: "whether an auth header value is stored (it is never returned)" }),
    allowedTenants: z.array(z.string()),
    enabled: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("McpServer");

const AuthHeader = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$/, "an HTTP header name")
      .refine((n) => !/^(host|content-length|content-type|accept|mcp-session-id|mcp-protocol-version)$/i.test(n), {
        message: "is set by the MCP client itself",
      }),
    value: z
      .string()
      .min(1)
      .max(8192)
      .regex(/^[\t\x20-\x7e\x80-\xff]*$/, "no control characters")
      .openapi({ description: "write-only: sealed at rest, never returned" }),
  })
  .strict();

const fields = {
  name: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, "lower-case letters, digits and -, starting with a letter, at most 32")
    .openapi({ description: "fixed at creation; tools are offered as mcp_<name>_<tool>" }),
  description: z.string().max(1000).nullable(),
  url: z.string().max(2000).openapi({ description: "the Streamable HTTP endpoint (http or https; no stdio servers)" }),
  authHeader: AuthHeader.nullable().openapi({ description: "sent with every request; null removes it" }),
  allowedTenants: z.array(z.string().min(1)).max(1000).openapi({ description: "tenant ids whose agents may use it" }),
  enabled: z.boolean(),
};

export const CreateMcpServerBody = z
  .object({
    ...fields,
    description: fields.description.optional(),
    authHeader: fields.authHeader.optional(),
    enabled: fields.enabled.default(true),
  })
  .strict()
  .openapi("CreateMcpServerRequest");

const { name: _name, ...patchable } = fields;
export const PatchMcpServerBody = z.object(patchable).partial().strict().openapi("PatchMcpServerRequest");
