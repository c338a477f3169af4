import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateWebhookSecret,
  updateWebhook,
} from "../../../services/webhooks/manage";
import { z } from "@hono/zod-openapi";
import { registerWebhookDeliveries } from "./deliveries";
import {
  common,
  CreateWebhookBody,
  RotateSecretBody,
  UpdateWebhookBody,
  WebhookSchema,
  WebhookWithSecretSchema,
} from "./schema";

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/webhooks",
  summary: "Webhook endpoints of the tenant (Admin)",
  responses: { 200: { description: "Endpoints", ...json(z.array(WebhookSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/a/webhooks",
  summary: "Create an endpoint; the URL must pass the SSRF policy (Admin)",
  request: { body: { ...json(CreateWebhookBody), required: true } },
  responses: {
    201: { description: "Created; the secret is shown once", ...json(WebhookWithSecretSchema) },
    ...errorResponses,
  },
});
const get = createRoute({
  ...common,
  method: "get",
  path: "/a/webhooks/{id}",
  summary: "One endpoint, without its secret (Admin)",
  request: { params: IdParam },
  responses: { 200: { description: "Endpoint", ...json(WebhookSchema) }, ...errorResponses },
});
const update = createRoute({
  ...common,
  method: "patch",
  path: "/a/webhooks/{id}",
  summary: "Change URL, events, description or enabled (Admin)",
  request: { params: IdParam, body: { ...json(UpdateWebhookBody), required: true } },
  responses: { 200: { description: "Updated", ...json(WebhookSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/a/webhooks/{id}",
  summary: "Delete an endpoint and its deliveries (Admin)",
  request: { params: IdParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const rotate = createRoute({
  ...common,
  method: "post",
  path: "/a/webhooks/{id}/rotate-secret",
  summary: "Replace the signing secret; the old one keeps signing beside it for a grace period (Admin)",
  request: { params: IdParam, body: { ...json(RotateSecretBody), required: false } },
  responses: {
    200: { description: "The new secret, shown once", ...json(WebhookWithSecretSchema) },
    ...errorResponses,
  },
});

/** /a/webhooks */
export function webhooksRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listWebhooks({ ctx: c.get("ctx") }), 200));
  r.openapi(create, async (c) => c.json(await createWebhook({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(get, (c) => c.json(getWebhook({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(update, async (c) =>
    c.json(await updateWebhook({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  r.openapi(remove, (c) => {
    deleteWebhook({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(rotate, (c) =>
    c.json(rotateWebhookSecret({ ctx: c.get("ctx"), input: { ...c.req.valid("param"), ...c.req.valid("json") } }), 200),
  );
  registerWebhookDeliveries(r);
  return r;
}
