import { z } from "@hono/zod-openapi";

export const DocumentTypeSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(["ACTIVE", "INACTIVE"]),
    isGlobal: z.boolean(),
    processKey: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("DocumentType");

export const CreateDocumentTypeBody = z
  .object({
    name: z.string(),
    description: z.string().nullable().optional(),
    status: z.enum(["ACTIVE", "INACTIVE"]).optional(),
    processKey: z.string().nullable().optional(),
  })
  .openapi("CreateDocumentTypeRequest");
export const UpdateDocumentTypeBody = CreateDocumentTypeBody.partial().openapi("UpdateDocumentTypeRequest");

export const ListQuery = z.object({
  isGlobal: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "true: only global types (open to every member)" }),
  processKey: z.string().optional(),
});
export const CreateQuery = z.object({
  isGlobal: z.enum(["true", "false"]).optional().openapi({ description: "true: a global type (SUPER_ADMIN only)" }),
});
