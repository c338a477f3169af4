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
    passwordVariable: z.string().openapi({ description: "name of the secret tenant variable holding the password" }),
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

const fields = {
  name: z.string().trim().min(1).max(200),
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
