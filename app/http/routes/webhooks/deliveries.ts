import { createRoute } from "@hono/zod-openapi";
import type { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { IdParam } from "../../schemas";
import { getDelivery, listDeliveries, redeliver } from "../../../services/webhooks/deliveries";
import { pingWebhook } from "../../../services/webhooks/ping";
import { common, DeliveriesQuery, DeliveryDetailSchema, DeliveryPage, DeliveryParams, DeliverySchema } from "./schema";

const ping = createRoute({
  ...common,
  method: "post",
  path: "/a/webhooks/{id}/test",
  summary: "Send a webhook.ping event now and answer with its outcome (Admin)",
  request: { params: IdParam },
  responses: { 200: { description: "The ping's delivery", ...json(DeliverySchema) }, ...errorResponses },
});
const list = createRoute({
  ...common,
  method: "get",
  path: "/a/webhooks/{id}/deliveries",
  summary: "Deliveries of an endpoint, newest first, optionally by status (Admin)",
  request: { params: IdParam, query: DeliveriesQuery },
  responses: { 200: { description: "Page of deliveries", ...json(DeliveryPage) }, ...errorResponses },
});
const get = createRoute({
  ...common,
  method: "get",
  path: "/a/webhooks/{id}/deliveries/{deliveryId}",
  summary: "One delivery with its payload and attempts (Admin)",
  request: { params: DeliveryParams },
  responses: { 200: { description: "Delivery", ...json(DeliveryDetailSchema) }, ...errorResponses },
});
const again = createRoute({
  ...common,
  method: "post",
  path: "/a/webhooks/{id}/deliveries/{deliveryId}/redeliver",
  summary: "Send a delivery again with a fresh retry schedule (Admin)",
  request: { params: DeliveryParams },
  responses: { 202: { description: "Queued", ...json(DeliverySchema) }, ...errorResponses },
});

export function registerWebhookDeliveries(r: ReturnType<typeof createRouter>) {
  r.openapi(ping, async (c) => c.json(await pingWebhook({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(list, (c) =>
    c.json(listDeliveries({ ctx: c.get("ctx"), input: { ...c.req.valid("query"), ...c.req.valid("param") } }), 200),
  );
  r.openapi(get, (c) => c.json(getDelivery({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(again, (c) => c.json(redeliver({ ctx: c.get("ctx"), input: c.req.valid("param") }), 202));
}
