import { createRoute, z } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth, requireModeler } from "../../middleware/roles";
import { createForm, deleteForm, getForm, listForms, saveForm } from "../../../services/forms/manage";
import { getVersionById, getVersionByNum, listVersions, publishForm } from "../../../services/forms/versions";
import {
  CreateFormBody,
  FormDetailSchema,
  FormParams,
  FormSummarySchema,
  FormVersionSchema,
  FormVersionWithSchema,
  NumParams,
  ProcessParam,
  PublishBody,
  SaveFormBody,
  VersionIdParams,
} from "./schema";

// Reading is open to every member (the task inbox shows forms); designing forms is the Modeler's (see docs/forms.md).
const read = { tags: ["forms"], security: tenantSecurity, middleware: requireAuth };
const write = { tags: ["forms"], security: tenantSecurity, middleware: requireModeler };
const base = "/a/definitions/{processKey}/forms";

const list = createRoute({
  ...read,
  method: "get",
  path: base,
  summary: "Forms of a process",
  request: { params: ProcessParam },
  responses: { 200: { description: "Forms", ...json(z.array(FormSummarySchema)) }, ...errorResponses },
});
const create = createRoute({
  ...write,
  method: "post",
  path: base,
  summary: "Create a form with its version 1 (Modeler)",
  request: { params: ProcessParam, body: { ...json(CreateFormBody), required: true } },
  responses: { 201: { description: "The form with its first version", ...json(FormDetailSchema) }, ...errorResponses },
});
const detail = createRoute({
  ...read,
  method: "get",
  path: `${base}/{key}`,
  summary: "Form with its latest and published versions",
  request: { params: FormParams },
  responses: { 200: { description: "Form", ...json(FormDetailSchema) }, ...errorResponses },
});
const save = createRoute({
  ...write,
  method: "put",
  path: `${base}/{key}`,
  summary: "Save a new version (Modeler)",
  request: { params: FormParams, body: { ...json(SaveFormBody), required: true } },
  responses: { 200: { description: "Form with the new latest version", ...json(FormDetailSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...write,
  method: "delete",
  path: `${base}/{key}`,
  summary: "Delete a form and its versions (Modeler)",
  request: { params: FormParams },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const versions = createRoute({
  ...read,
  method: "get",
  path: `${base}/{key}/versions`,
  summary: "Versions, newest first",
  request: { params: FormParams },
  responses: { 200: { description: "Versions", ...json(z.array(FormVersionSchema)) }, ...errorResponses },
});
const byNum = createRoute({
  ...read,
  method: "get",
  path: `${base}/{key}/versions/{num}`,
  summary: "A version by number",
  request: { params: NumParams },
  responses: { 200: { description: "Version", ...json(FormVersionWithSchema) }, ...errorResponses },
});
const byId = createRoute({
  ...read,
  method: "get",
  path: `${base}/{key}/versions/by-id/{versionId}`,
  summary: "A version by UUID",
  request: { params: VersionIdParams },
  responses: { 200: { description: "Version", ...json(FormVersionWithSchema) }, ...errorResponses },
});
const publish = createRoute({
  ...write,
  method: "post",
  path: `${base}/{key}/publish`,
  summary: "Publish a version; absent versionId = latest (Modeler)",
  request: { params: FormParams, body: { ...json(PublishBody), required: false } },
  responses: { 200: { description: "Form with its published version", ...json(FormDetailSchema) }, ...errorResponses },
});

/** /a/definitions/{processKey}/forms. There is deliberately no /a/forms/{key} route (the spec wants 404 there). */
export function formsRouter() {
  const r = createRouter();
  r.openapi(list, (c) =>
    c.json(listForms({ ctx: c.get("ctx"), input: { processKey: c.req.valid("param").processKey } }), 200),
  );
  r.openapi(create, (c) =>
    c.json(
      createForm({ ctx: c.get("ctx"), input: { processKey: c.req.valid("param").processKey, ...c.req.valid("json") } }),
      201,
    ),
  );
  r.openapi(detail, (c) => {
    const p = c.req.valid("param");
    return c.json(getForm({ ctx: c.get("ctx"), input: { processKey: p.processKey, key: p.key } }), 200);
  });
  r.openapi(save, (c) => {
    const p = c.req.valid("param");
    return c.json(
      saveForm({ ctx: c.get("ctx"), input: { processKey: p.processKey, key: p.key, ...c.req.valid("json") } }),
      200,
    );
  });
  r.openapi(remove, (c) => {
    const p = c.req.valid("param");
    deleteForm({ ctx: c.get("ctx"), input: { processKey: p.processKey, key: p.key } });
    return c.body(null, 204);
  });
  r.openapi(versions, (c) => {
    const p = c.req.valid("param");
    return c.json(listVersions({ ctx: c.get("ctx"), input: { processKey: p.processKey, key: p.key } }), 200);
  });
  r.openapi(byNum, (c) => {
    const p = c.req.valid("param");
    return c.json(
      getVersionByNum({ ctx: c.get("ctx"), input: { processKey: p.processKey, key: p.key, num: p.num } }),
      200,
    );
  });
  r.openapi(byId, (c) => {
    const p = c.req.valid("param");
    return c.json(
      getVersionById({ ctx: c.get("ctx"), input: { processKey: p.processKey, key: p.key, versionId: p.versionId } }),
      200,
    );
  });
  r.openapi(publish, async (c) => {
    const p = c.req.valid("param");
    return c.json(
      publishForm({
        ctx: c.get("ctx"),
        input: { processKey: p.processKey, key: p.key, ...(c.req.valid("json") ?? {}) },
      }),
      200,
    );
  });
  return r;
}
