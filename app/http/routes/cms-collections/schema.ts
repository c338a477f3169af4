import { z } from "@hono/zod-openapi";
import { FIELD_TYPES } from "../../../services/cms/fields";

export const Confidentiality = z.enum(["PUBLIC", "SECRET", "TOP_SECRET"]);

export const FieldDefSchema = z
  .object({
    name: z.string().openapi({ example: "price" }),
    type: z.string().openapi({ enum: [...FIELD_TYPES], example: "number" }),
    label: z.string().optional(),
    required: z.boolean().optional(),
    unique: z.boolean().optional(),
    options: z.array(z.string()).optional().openapi({ description: "select and multiselect values" }),
    collectionId: z.string().optional().openapi({ description: "target collection of a reference field" }),
    maxLength: z
      .number()
      .int()
      .optional()
      .openapi({ description: "text (default 1000) and longtext (default 1,000,000)" }),
  })
  .passthrough()
  .openapi("CmsField");

export const CollectionSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    fields: z.array(FieldDefSchema),
    confidentiality: Confidentiality,
    recordCount: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("CmsCollection");

// Field definitions are checked in depth by the service, which names each problem as fields[i].<key>.
export const CreateCollectionBody = z
  .object({
    name: z.string(),
    fields: z.array(z.unknown()).openapi({ type: "array", items: { $ref: "#/components/schemas/CmsField" } }),
    confidentiality: Confidentiality,
  })
  .openapi("CreateCmsCollectionRequest");

export const UpdateCollectionBody = z
  .object({
    name: z.string().optional(),
    fields: z
      .array(z.unknown())
      .optional()
      .openapi({ type: "array", items: { $ref: "#/components/schemas/CmsField" } }),
    confidentiality: Confidentiality.optional(),
  })
  .openapi("UpdateCmsCollectionRequest");
