import { createRoute, z } from "@hono/zod-openapi";
import type { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { linkProcess, listProcessBases, unlinkProcess } from "../../../services/knowledge-bases/links";
import { KnowledgeBaseSchema, LinkParams, LinkSchema, ProcessParam } from "./schema";
import { kbCommon } from "./common";

const linked = createRoute({
  ...kbCommon,
  method: "get",
  path: "/a/knowledge-bases/process/{definitionKey}",
  summary: "Knowledge bases linked to a process",
  request: { params: ProcessParam },
  responses: { 200: { description: "Linked bases", ...json(z.array(KnowledgeBaseSchema)) }, ...errorResponses },
});
const link = createRoute({
  ...kbCommon,
  method: "post",
  path: "/a/knowledge-bases/process/{definitionKey}/link/{id}",
  summary: "Link a base to a process",
  request: { params: LinkParams },
  responses: { 201: { description: "Linked", ...json(LinkSchema) }, ...errorResponses },
});
const unlink = createRoute({
  ...kbCommon,
  method: "delete",
  path: "/a/knowledge-bases/process/{definitionKey}/unlink/{id}",
  summary: "Unlink a base from a process",
  request: { params: LinkParams },
  responses: { 204: { description: "Unlinked" }, ...errorResponses },
});

export function registerKnowledgeLinks(r: ReturnType<typeof createRouter>) {
  r.openapi(linked, (c) => c.json(listProcessBases({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(link, (c) => c.json(linkProcess({ ctx: c.get("ctx"), input: c.req.valid("param") }), 201));
  r.openapi(unlink, (c) => {
    unlinkProcess({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
}
