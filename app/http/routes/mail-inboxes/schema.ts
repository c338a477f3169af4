import { z } from "@hono/zod-openapi";

const VAR_NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;

export const InboxSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    host: z.string(),
    port: z.number().int(),
    tlsMode: z.enum(["TLS", "STARTTLS", "NONE"]),
    username: z.string(),
    authMethod: z.enum(["PASSWORD", "OAUTH2"]),
    passwordVariable: z
      .string()
      .nullable()
      .openapi({ description: "PASSWORD: name of the secret tenant variable holding the password" }),
    oauth: z
      .object({
        provider: z.enum(["MICROSOFT_365", "GOOGLE", "CUSTOM"]).nullable(),
        grant: z.enum(["REFRESH_TOKEN", "CLIENT_CREDENTIALS"]).nullable(),
        clientId: z.string().nullable(),
        tokenUrl: z.string().nullable(),
        scope: z.string().nullable(),
        accessTokenExpiresAt: z.string().nullable(),
      })
      .nullable()
      .openapi({ description: "OAUTH2: the client (its secret and tokens are never returned)" }),
    folder: z.string(),
    pollIntervalSeconds: z.number().int(),
    afterRead: z.enum(["FLAG", "MOVE"]),
    moveToFolder: z.string().nullable(),
    enabled: z.boolean(),
    status: z.enum(["ACTIVE", "ERROR"]),
    lastError: z.string().nullable(),
    lastPollAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("MailInbox");

const secret = z.string().min(1).max(8192);
const OAuthBody = z
  .object({
    provider: z
      .enum(["MICROSOFT_365", "GOOGLE", "CUSTOM"])
      .optional()
      .openapi({ description: "preset of host, port, TLS, token endpoint and scope (CUSTOM: none)" }),
    grant: z.enum(["REFRESH_TOKEN", "CLIENT_CREDENTIALS"]).optional(),
    clientId: z.string().trim().min(1).max(500).optional(),
    clientSecret: secret.optional().openapi({ description: "write-only; stored sealed" }),
    refreshToken: secret.optional().openapi({ description: "write-only; stored sealed" }),
    tokenUrl: z.string().url().max(2000).optional(),
    scope: z.string().max(1000).optional(),
    tenantId: z
      .string()
      .regex(/^[A-Za-z0-9.-]{1,200}$/, "must be a directory id or domain")
      .optional()
      .openapi({ description: "Microsoft 365: the directory in the token URL" }),
  })
  .strict();

const fields = {
  name: z.string().trim().min(1).max(200),
  authMethod: z.enum(["PASSWORD", "OAUTH2"]),
  oauth: OAuthBody,
  host: z.string().trim().min(1).max(253),
  port: z.number().int().min(1).max(65535),
  tlsMode: z.enum(["TLS", "STARTTLS", "NONE"]),
  username: z.string().min(1).max(320),
  passwordVariable: z.string().regex(VAR_NAME, "must be a tenant variable name"),
  folder: z.string().min(1).max(200),
  pollIntervalSeconds: z.number().int().min(10).max(86_400),
  afterRead: z.enum(["FLAG", "MOVE"]),
  moveToFolder: z.string().min(1).max(200).nullable(),
  enabled: z.boolean(),
};

export const CreateInboxBody = z
  .object({
    ...fields,
    host: fields.host.optional(),
    port: fields.port.optional(),
    tlsMode: fields.tlsMode.optional(),
    authMethod: fields.authMethod.optional(),
    passwordVariable: fields.passwordVariable.optional(),
    oauth: fields.oauth.optional(),
    folder: fields.folder.default("INBOX"),
    pollIntervalSeconds: fields.pollIntervalSeconds.default(60),
    afterRead: fields.afterRead.default("FLAG"),
    moveToFolder: fields.moveToFolder.default(null),
    enabled: fields.enabled.default(true),
  })
  .strict()
  .openapi("CreateMailInboxRequest");

export const PatchInboxBody = z.object(fields).partial().strict().openapi("PatchMailInboxRequest");

export const InboxSummarySchema = z
  .object({ id: z.string(), name: z.string(), status: z.string() })
  .openapi("MailInboxSummary");
