import { z } from "@hono/zod-openapi";
import { PersonSchema } from "../../../services/people/people";
import { ErrorSchema } from "../../errors/openapi-responses";

export const EntityTypeSchema = z.enum(["PROCESS_INSTANCE", "KNOWLEDGE_BASE", "PROCESS_KNOWLEDGE", "GLOBAL"]);

export const AttachmentSchema = z
  .object({
    id: z.string(),
    rootId: z.string().openapi({ description: "id of the first version; shared by every version" }),
    entityType: EntityTypeSchema,
    entityId: z.string(),
    fileName: z.string(),
    contentType: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    version: z.number().int(),
    documentTypeId: z.string().nullable(),
    status: z.enum(["CURRENT", "SUPERSEDED"]),
    supersededBy: z.string().nullable(),
    supersededAt: z.string().nullable(),
    uploadedBy: z.string().nullable(),
    uploadedByUser: PersonSchema.nullable().optional().openapi({
      description: "GET /a/attachments and .../{id}/history: the uploader's display name and e-mail (null for none)",
    }),
    uploadedAt: z.string(),
  })
  .openapi("Attachment");

export const EntityQuery = z.object({
  entityType: z.string().optional().openapi({ enum: EntityTypeSchema.options, example: "PROCESS_INSTANCE" }),
  entityId: z.string().optional(),
});

export const CapabilitiesSchema = z
  .object({ canUpload: z.boolean(), canPreview: z.boolean(), canReplace: z.boolean() })
  .openapi("AttachmentCapabilities");

/** Plain OpenAPI schemas (not zod), so the multipart body is documented but streamed by the service, never buffered. */
export const uploadBody = {
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["file", "entityType", "entityId"],
        properties: {
          file: { type: "string" as const, format: "binary" },
          entityType: { type: "string" as const, enum: [...EntityTypeSchema.options] },
          entityId: { type: "string" as const },
          documentTypeId: { type: "string" as const },
        },
      },
    },
  },
  required: true,
};
export const replaceBody = {
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["file"],
        properties: {
          file: { type: "string" as const, format: "binary" },
          documentTypeId: { type: "string" as const },
        },
      },
    },
  },
  required: true,
};

export const tooLarge = {
  413: {
    description: "File above the maximum upload size; nothing written",
    content: { "application/json": { schema: ErrorSchema } },
  },
};
