import { z } from "@hono/zod-openapi";

const Pattern = z.string().min(1).max(500);

const MatchSchema = z
  .object({
    from: z.string().max(320).nullable().optional().openapi({ description: "an address, or a domain" }),
    to: z.string().max(320).nullable().optional(),
    subjectContains: z.string().max(500).nullable().optional(),
    bodyContains: z.string().max(500).nullable().optional(),
    subjectRegex: Pattern.nullable().optional(),
    hasAttachment: z.boolean().nullable().optional(),
  })
  .strict()
  .openapi("MailRuleMatch");

const VarName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,99}$/, "must be a variable name");
const MappingSchema = z
  .object({
    subject: VarName.nullable().optional(),
    from: VarName.nullable().optional(),
    date: VarName.nullable().optional(),
    text: VarName.nullable().optional(),
    extract: z
      .array(z.object({ source: z.enum(["SUBJECT", "BODY"]), pattern: Pattern }).strict())
      .max(20)
      .optional()
      .openapi({ description: "named groups of each pattern become variables" }),
  })
  .strict()
  .openapi("MailRuleMapping");

const CorrelateSchema = z
  .object({
    messageName: z.string().min(1).max(255),
    key: z
      .object({
        source: z.enum(["SUBJECT", "HEADER", "IN_REPLY_TO"]),
        header: z.string().min(1).max(100).nullable().optional(),
        pattern: Pattern.nullable().optional().openapi({
          description: "the group `key` (else the first group, else the match) is the business key",
        }),
      })
      .strict(),
    fallback: z.enum(["START", "NO_MATCH"]).default("NO_MATCH"),
  })
  .strict()
  .openapi("MailRuleCorrelation", {
    description:
      "Deliver the mail as message `messageName` to the running instance with this business key (its catch event or " +
      "receive task gets the mapped variables and the attachments) instead of starting one",
  });

export const RuleSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    definitionKey: z.string(),
    inboxId: z.string().nullable(),
    priority: z.number().int(),
    enabled: z.boolean(),
    match: MatchSchema,
    mapping: MappingSchema,
    correlate: CorrelateSchema.nullable(),
    attachmentDocumentTypeId: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("MailRule");

const fields = {
  name: z.string().trim().min(1).max(200),
  definitionKey: z.string().min(1).max(255),
  inboxId: z.string().nullable(),
  priority: z.number().int().min(0).max(1_000_000),
  enabled: z.boolean(),
  match: MatchSchema,
  mapping: MappingSchema,
  correlate: CorrelateSchema.nullable(),
  attachmentDocumentTypeId: z.string().nullable(),
};

export const CreateRuleBody = z
  .object({
    ...fields,
    inboxId: fields.inboxId.default(null),
    priority: fields.priority.default(100),
    enabled: fields.enabled.default(true),
    match: fields.match.default({}),
    mapping: fields.mapping.default({}),
    correlate: fields.correlate.default(null),
    attachmentDocumentTypeId: fields.attachmentDocumentTypeId.default(null),
  })
  .strict()
  .openapi("CreateMailRuleRequest");

export const PatchRuleBody = z.object(fields).partial().strict().openapi("PatchMailRuleRequest");

export const RuleListQuery = z.object({ definitionKey: z.string().optional() });
