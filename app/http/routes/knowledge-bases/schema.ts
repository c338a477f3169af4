import { z } from "@hono/zod-openapi";
import { pageSchema } from "../../schemas";
import { PersonSchema } from "../../../services/people/people";

export const KnowledgeBaseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    isGlobal: z.boolean(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("KnowledgeBase");

export const KnowledgeBaseDetailSchema = KnowledgeBaseSchema.extend({
  documentCount: z.number().int(),
  chunkCount: z.number().int(),
  needsReindex: z
    .boolean()
    .openapi({ description: "vectors made with another embedding model than the configured one" }),
}).openapi("KnowledgeBaseDetail");

export const CreateKnowledgeBaseBody = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(2000).nullish(),
    isGlobal: z.boolean().optional().openapi({ description: "true requires SUPER_ADMIN" }),
  })
  .openapi("CreateKnowledgeBase");

export const KnowledgeDocumentSchema = z
  .object({
    id: z.string(),
    knowledgeBaseId: z.string(),
    fileName: z.string(),
    format: z.enum(["PDF", "TXT", "MD"]),
    size: z.number().int(),
    status: z.enum(["PENDING", "INDEXING", "INDEXED", "FAILED"]),
    error: z.string().nullable(),
    chunksDone: z.number().int(),
    chunksTotal: z.number().int(),
    embedded: z.boolean(),
    uploadedBy: z.string().nullable(),
    uploadedByUser: PersonSchema.nullable().openapi({ description: "who uploaded it (null: the system or unknown)" }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi("KnowledgeDocument");
export const KnowledgeDocumentPage = pageSchema(KnowledgeDocumentSchema, "KnowledgeDocumentPage");

export const UploadAccepted = z
  .object({ id: z.string(), status: z.literal("PENDING") })
  .openapi("KnowledgeDocumentAccepted");

export const SearchBody = z
  .object({
    query: z.string().min(1).max(4000),
    k: z
      .number()
      .int()
      .min(1)
      .max(50)
      .optional()
      .openapi({ description: "hits answered; default topK of /admin/rag-config" }),
  })
  .openapi("KnowledgeSearch");

export const SearchResultSchema = z
  .object({
    mode: z.enum(["HYBRID", "FTS"]),
    note: z.string().nullable().openapi({ description: "why the answer is full-text only, when it is" }),
    hits: z.array(
      z.object({
        chunkId: z.number().int(),
        score: z.number(),
        snippet: z.string(),
        documentId: z.string(),
        fileName: z.string(),
        location: z.string().nullable(),
        startOffset: z.number().int(),
        endOffset: z.number().int(),
      }),
    ),
  })
  .openapi("KnowledgeSearchResult");

export const LinkSchema = z
  .object({ definitionKey: z.string(), knowledgeBaseId: z.string() })
  .openapi("KnowledgeBaseLink");

const param = (name: string) => z.string().openapi({ param: { name, in: "path" } });
export const DocParams = z.object({ id: param("id"), docId: param("docId") });
export const ProcessParam = z.object({ definitionKey: param("definitionKey") });
export const LinkParams = z.object({ definitionKey: param("definitionKey"), id: param("id") });
export const KeyParam = z.object({ key: param("key") });
export const KeyDocParams = z.object({ key: param("key"), docId: param("docId") });

export const ChunkCountSchema = z
  .object({ definitionKey: z.string(), count: z.number().int() })
  .openapi("KnowledgeCount");
export const ReindexSchema = z
  .object({ definitionKey: z.string(), queued: z.number().int() })
  .openapi("KnowledgeReindex");

/** The multipart body of a document upload, documented here and streamed by the service. */
export const documentBody = {
  content: {
    "multipart/form-data": {
      schema: {
        type: "object" as const,
        required: ["file"],
        properties: { file: { type: "string" as const, format: "binary", description: "PDF, TXT or MD" } },
      },
    },
  },
  required: true,
};
