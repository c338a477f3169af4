import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth, requireManager, requireModeler } from "../../middleware/roles";
import {
  deleteProcessDoc,
  getProcessDoc,
  proposeProcessDoc,
  putProcessDoc,
} from "../../../services/definitions/documentation";
import * as shared from "../../../services/definitions/schemas";
import { KeyParam } from "./schema";

const common = { tags: ["definitions"], security: tenantSecurity };
const path = "/a/definitions/{key}/documentation";

const DocSchema = shared.ProcessDocSchema.openapi("ProcessDocumentation");
const DocBody = z.object({ description: z.string() }).openapi("ProcessDocumentationBody");
const ProposeBody = z
  .object({
    xml: z.string().optional().openapi({ description: "BPMN to describe; the latest deployed version when absent" }),
  })
  .openapi("ProcessDocumentationProposeBody");
const ProposalSchema = shared.DocProposalSchema.openapi("ProcessDocumentationProposal");

const read = createRoute({
  ...common,
  middleware: requireAuth,
  method: "get",
  path,
  summary: "The process's description (Auth)",
  request: { params: KeyParam },
  responses: { 200: { description: "Documentation", ...json(DocSchema) }, ...errorResponses },
});
const write = createRoute({
  ...common,
  middleware: requireManager,
  method: "put",
  path,
  summary: "Write the process's description (Manager)",
  request: { params: KeyParam, body: { ...json(DocBody), required: true } },
  responses: { 200: { description: "Documentation", ...json(DocSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  middleware: requireManager,
  method: "delete",
  path,
  summary: "Delete the process's description (Manager)",
  request: { params: KeyParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const propose = createRoute({
  ...common,
  middleware: requireModeler,
  method: "post",
  path: `${path}/propose`,
  summary: "The AI model proposes a description from the BPMN; nothing is written (Modeler; 402, 409)",
  request: { params: KeyParam, body: { ...json(ProposeBody), required: false } },
  responses: { 200: { description: "Proposal", ...json(ProposalSchema) }, ...errorResponses },
});

export function registerDefinitionDocumentation(r: OpenAPIHono<AppEnv>) {
  r.openapi(read, (c) => c.json(getProcessDoc({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(write, (c) => {
    const input = { key: c.req.valid("param").key, description: c.req.valid("json").description };
    return c.json(putProcessDoc({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(remove, (c) => {
    deleteProcessDoc({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(propose, async (c) => {
    // The body is optional: without it the latest deployed version is described.
    const body = (c.req.header("content-type") ?? "").includes("json") ? c.req.valid("json") : {};
    const input = { key: c.req.valid("param").key, xml: body.xml };
    return c.json(await proposeProcessDoc({ ctx: c.get("ctx"), input }), 200);
  });
}
