import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireModeler } from "../../middleware/roles";
import { uploadedText } from "../../multipart";
import { deployDefinitionFile } from "../../../services/definitions/deploy";
import {
  effectiveAttachmentPolicy,
  getDefinitionConfig,
  mcpPolicyOf,
  putDefinitionConfig,
} from "../../../services/definitions/config";
import {
  activateDefinition,
  definitionVersions,
  definitionXml,
  publishDefinition,
  suspendDefinition,
  toggleDefinition,
} from "../../../services/definitions/versions";
import {
  AttachmentPolicySchema,
  ConfigBody,
  ConfigSchema,
  DefinitionSchema,
  DeployResultSchema,
  FileUpload,
  KeyParam,
  VersionParams,
  VersionRowSchema,
} from "./schema";

const common = { tags: ["definitions"], security: tenantSecurity, middleware: requireModeler };
const one = { 200: { description: "Definition", ...json(DefinitionSchema) }, ...errorResponses };

const deploy = createRoute({
  ...common,
  method: "post",
  path: "/a/definitions/deploy",
  summary: "Deploy a BPMN (or CMMN) file: a new version per key; publishing does not change (Modeler)",
  request: { body: { content: { "multipart/form-data": { schema: FileUpload } } } },
  responses: { 200: { description: "Deployed", ...json(DeployResultSchema) }, ...errorResponses },
});
const versions = createRoute({
  ...common,
  method: "get",
  path: "/a/definitions/{key}/versions",
  summary: "Version history with published (Modeler)",
  request: { params: KeyParam },
  responses: { 200: { description: "Versions", ...json(z.array(VersionRowSchema)) }, ...errorResponses },
});
const publish = createRoute({
  ...common,
  method: "post",
  path: "/a/definitions/{key}/versions/{definitionId}/publish",
  summary: "Publish a version (Modeler)",
  request: { params: VersionParams },
  responses: one,
});
const xml = createRoute({
  ...common,
  method: "get",
  path: "/a/definitions/{key}/versions/{definitionId}/xml",
  summary: "XML of a version (Modeler)",
  request: { params: VersionParams },
  responses: { 200: { description: "XML", content: { "application/xml": { schema: z.string() } } }, ...errorResponses },
});
const suspend = createRoute({
  ...common,
  method: "put",
  path: "/a/definitions/{key}/suspend",
  summary: "Suspend: no new instance starts (BPMN only) (Modeler)",
  request: { params: KeyParam },
  responses: one,
});
const activate = createRoute({
  ...common,
  method: "put",
  path: "/a/definitions/{key}/activate",
  summary: "Activate a suspended definition (BPMN only) (Modeler)",
  request: { params: KeyParam },
  responses: one,
});
const toggle = createRoute({
  ...common,
  method: "patch",
  path: "/a/definitions/{key}/toggle",
  summary: "Enable or disable in the tenant catalog (Modeler)",
  request: { params: KeyParam },
  responses: one,
});
const getConfig = createRoute({
  ...common,
  method: "get",
  path: "/a/definitions/{key}/config",
  summary: "The stored business key template, attachment policy, MCP policy and history time-to-live (Modeler)",
  request: { params: KeyParam },
  responses: { 200: { description: "Config", ...json(ConfigSchema) }, ...errorResponses },
});
const putConfig = createRoute({
  ...common,
  method: "put",
  path: "/a/definitions/{key}/config",
  summary: "Business key template, attachment policy, MCP policy, history time-to-live (Modeler)",
  request: { params: KeyParam, body: { ...json(ConfigBody), required: true } },
  responses: { 200: { description: "Config", ...json(ConfigSchema) }, ...errorResponses },
});
const attachmentPolicy = createRoute({
  ...common,
  method: "get",
  path: "/a/definitions/{key}/attachment-policy",
  summary: "Effective attachment policy (AD_HOC when none) (Modeler)",
  request: { params: KeyParam },
  responses: { 200: { description: "Policy", ...json(AttachmentPolicySchema) }, ...errorResponses },
});
const mcpPolicy = createRoute({
  ...common,
  method: "get",
  path: "/a/definitions/{key}/mcp-policy",
  summary: "What an MCP assistant may do in the process (Modeler)",
  request: { params: KeyParam },
  responses: {
    200: {
      description: "Policy",
      ...json(z.object({ key: z.string(), mcpPolicy: z.string(), canStart: z.boolean(), canComplete: z.boolean() })),
    },
    ...errorResponses,
  },
});

export function registerDefinitionDesign(r: OpenAPIHono<AppEnv>) {
  r.openapi(deploy, async (c) =>
    c.json(await deployDefinitionFile({ ctx: c.get("ctx"), input: await uploadedText(c, "file") }), 200),
  );
  r.openapi(versions, (c) => c.json(definitionVersions({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(publish, async (c) =>
    c.json(await publishDefinition({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(xml, (c) =>
    c.body(definitionXml({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200, {
      "content-type": "application/xml; charset=utf-8",
    }),
  );
  r.openapi(suspend, async (c) =>
    c.json(await suspendDefinition({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(activate, async (c) =>
    c.json(await activateDefinition({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(toggle, async (c) =>
    c.json(await toggleDefinition({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(getConfig, (c) => c.json(getDefinitionConfig({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(putConfig, async (c) => {
    const input = { key: c.req.valid("param").key, config: c.req.valid("json") };
    return c.json(await putDefinitionConfig({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(attachmentPolicy, (c) =>
    c.json(effectiveAttachmentPolicy({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200),
  );
  r.openapi(mcpPolicy, (c) => c.json(mcpPolicyOf({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
}
