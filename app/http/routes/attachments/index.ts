import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { requireAuth } from "../../middleware/roles";
import type { AppEnv } from "../../env";
import { incomingUpload } from "../../multipart";
import { replaceAttachment, uploadAttachment } from "../../../services/attachments/upload";
import {
  attachmentCapabilities,
  attachmentHistory,
  getAttachment,
  listAttachments,
  openAttachment,
} from "../../../services/attachments/read";
import { deleteAttachment } from "../../../services/attachments/delete";
import { AttachmentSchema, CapabilitiesSchema, EntityQuery, replaceBody, tooLarge, uploadBody } from "./schema";

// Every rule beyond membership (policy roles, upload mode, delete refusal) is decided by the attachments service.
const common = { tags: ["attachments"], security: tenantSecurity, middleware: requireAuth };

const upload = createRoute({
  ...common,
  method: "post",
  path: "/a/attachments",
  summary: "Upload a file to an entity (per uploadMode and uploadRoles)",
  request: { body: uploadBody },
  responses: { 201: { description: "Stored", ...json(AttachmentSchema) }, ...errorResponses, ...tooLarge },
});
const list = createRoute({
  ...common,
  method: "get",
  path: "/a/attachments",
  summary: "Current attachments of an entity",
  request: { query: EntityQuery },
  responses: { 200: { description: "Attachments", ...json(z.array(AttachmentSchema)) }, ...errorResponses },
});
const capabilities = createRoute({
  ...common,
  method: "get",
  path: "/a/attachments/capabilities",
  summary: "What the current user may do on an entity's attachments",
  request: { query: EntityQuery },
  responses: { 200: { description: "Capabilities", ...json(CapabilitiesSchema) }, ...errorResponses },
});
const detail = createRoute({
  ...common,
  method: "get",
  path: "/a/attachments/{id}",
  summary: "Attachment metadata (previewRoles)",
  request: { params: IdParam },
  responses: { 200: { description: "Metadata", ...json(AttachmentSchema) }, ...errorResponses },
});
const download = createRoute({
  ...common,
  method: "get",
  path: "/a/attachments/{id}/download",
  summary: "File content (previewRoles); ?inline=true to preview",
  request: { params: IdParam, query: z.object({ inline: z.string().optional() }) },
  responses: {
    200: {
      description: "The file",
      content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } },
    },
    ...errorResponses,
  },
});
const replace = createRoute({
  ...common,
  method: "post",
  path: "/a/attachments/{id}/replace",
  summary: "Upload a new version; the previous one becomes superseded (replaceRoles)",
  request: { params: IdParam, body: replaceBody },
  responses: { 201: { description: "The new version", ...json(AttachmentSchema) }, ...errorResponses, ...tooLarge },
});
const history = createRoute({
  ...common,
  method: "get",
  path: "/a/attachments/{id}/history",
  summary: "Superseded versions, newest first (previewRoles)",
  request: { params: IdParam },
  responses: { 200: { description: "Versions", ...json(z.array(AttachmentSchema)) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/a/attachments/{id}",
  summary: "Delete with every version (never for PROCESS_INSTANCE)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});

const incoming = (c: Context<AppEnv>) => incomingUpload(c);

/** /a/attachments */
export function attachmentsRouter() {
  const r = createRouter();
  r.openapi(upload, async (c) => c.json(await uploadAttachment({ ctx: c.get("ctx"), input: incoming(c) }), 201));
  r.openapi(list, (c) => c.json(listAttachments({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200));
  r.openapi(capabilities, (c) =>
    c.json(attachmentCapabilities({ ctx: c.get("ctx"), input: c.req.valid("query") }), 200),
  );
  r.openapi(detail, (c) => c.json(getAttachment({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(download, (c) => {
    const { file, headers } = openAttachment({
      ctx: c.get("ctx"),
      input: { id: c.req.valid("param").id, inline: c.req.valid("query").inline === "true" },
    });
    return new Response(file, { status: 200, headers });
  });
  r.openapi(replace, async (c) =>
    c.json(
      await replaceAttachment({ ctx: c.get("ctx"), input: { id: c.req.valid("param").id, up: incoming(c) } }),
      201,
    ),
  );
  r.openapi(history, (c) => c.json(attachmentHistory({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(remove, (c) => {
    deleteAttachment({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  return r;
}
