import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses, userSecurity } from "../../errors/openapi-responses";
import { getRagConfig, updateRagConfig } from "../../../services/admin-rag-config/rag-config";

const Settings = {
  chunkSize: z.number().int().min(200).max(8000),
  chunkOverlap: z.number().int().min(0).max(2000),
  topK: z.number().int().min(1).max(50),
  ftsWeight: z.number().min(0).max(10),
  vectorWeight: z.number().min(0).max(10),
  rrfK: z.number().int().min(1).max(1000),
  ivfThreshold: z.number().int().min(1000).max(100_000_000),
  ivfProbes: z.number().int().min(0).max(1024),
};
const RagConfigSchema = z
  .object({
    ...Settings,
    embeddingModel: z.string().nullable(),
    retrievalMode: z.enum(["HYBRID", "FTS"]),
    vectorStore: z.literal("sqlite-vec"),
  })
  .openapi("RagConfig");
const RagConfigBody = z.object(Settings).partial().strict().openapi("RagConfigUpdate");

const common = { tags: ["admin: rag"], security: userSecurity };
const read = createRoute({
  ...common,
  method: "get",
  path: "/admin/rag-config",
  summary: "Retrieval settings: chunking, top-k, hybrid weights (SA)",
  responses: { 200: { description: "Settings", ...json(RagConfigSchema) }, ...errorResponses },
});
const write = createRoute({
  ...common,
  method: "put",
  path: "/admin/rag-config",
  summary: "Change any of the retrieval settings (SA); chunking applies to the next indexing",
  request: { body: { ...json(RagConfigBody), required: true } },
  responses: { 200: { description: "Settings", ...json(RagConfigSchema) }, ...errorResponses },
});

/** /admin/rag-config */
export function adminRagConfigRouter() {
  const r = createRouter();
  r.openapi(read, (c) => c.json(getRagConfig({ ctx: platformCtx(c) }), 200));
  r.openapi(write, (c) => c.json(updateRagConfig({ ctx: platformCtx(c), input: c.req.valid("json") }), 200));
  return r;
}
