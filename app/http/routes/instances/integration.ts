import { createRoute, z, type OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { json } from "../../openapi-helpers";
import { errorResponses, tenantSecurity } from "../../errors/openapi-responses";
import { requireAuth, requireManager } from "../../middleware/roles";
import { IdParam } from "../../schemas";
import { instanceActivityTree, putInstanceVariables, triggerInstance } from "../../../services/instances/integration";
import { InstanceDetailSchema } from "./schema";

const common = { tags: ["instances"], security: tenantSecurity };
const Variables = z.record(z.string(), z.unknown());

const TriggerBody = z
  .object({ activityId: z.string().min(1), variables: Variables.optional() })
  .openapi("TriggerRequest", { example: { activityId: "waitForShipment", variables: { trackingId: "1Z999" } } });
const NodeSchema = z
  .object({
    executionId: z.string(),
    activityId: z.string(),
    kind: z.enum(["process", "scope", "multiInstanceBody", "activity"]),
    state: z.enum(["active", "joined"]),
    children: z
      .array(z.record(z.string(), z.unknown()))
      .openapi({ description: "nodes of this same shape: the executions inside this one" }),
  })
  .openapi("ActivityTreeNode");
const TreeSchema = z.object({ instanceId: z.string(), root: NodeSchema.nullable() }).openapi("ActivityTree", {
  example: {
    instanceId: "0193f1c2-aa",
    root: {
      executionId: "0193f1c2-aa",
      activityId: "order",
      kind: "process",
      state: "active",
      children: [
        { executionId: "0193f1c2-ab", activityId: "approve", kind: "activity", state: "active", children: [] },
      ],
    },
  },
});
const VariablesBody = z
  .object({ variables: Variables })
  .openapi("PutVariablesRequest", { example: { variables: { priority: "high", amount: 250 } } });
const VariablesAnswer = z
  .object({ instanceId: z.string(), variables: Variables })
  .openapi("InstanceVariables", { example: { instanceId: "0193f1c2-aa", variables: { priority: "high" } } });

const trigger = createRoute({
  ...common,
  middleware: requireAuth,
  method: "post",
  path: "/a/instances/{id}/trigger",
  summary: "Move a token waiting at a receive task or catch event on (409 when nothing waits there)",
  request: { params: IdParam, body: { ...json(TriggerBody), required: true } },
  responses: { 200: { description: "Instance", ...json(InstanceDetailSchema) }, ...errorResponses },
});
const tree = createRoute({
  ...common,
  middleware: requireAuth,
  method: "get",
  path: "/a/instances/{id}/activity-tree",
  summary: "Active executions per scope (404 when the caller takes no part; root null once ended)",
  request: { params: IdParam },
  responses: { 200: { description: "Tree", ...json(TreeSchema) }, ...errorResponses },
});
const variables = createRoute({
  ...common,
  middleware: requireManager,
  method: "put",
  path: "/a/instances/{id}/variables",
  summary: "Merge variables into a running process or case (Manager)",
  request: { params: IdParam, body: { ...json(VariablesBody), required: true } },
  responses: { 200: { description: "All variables", ...json(VariablesAnswer) }, ...errorResponses },
});

export function registerInstanceIntegration(r: OpenAPIHono<AppEnv>) {
  r.openapi(trigger, async (c) => {
    const input = { ...c.req.valid("param"), ...c.req.valid("json") };
    return c.json(await triggerInstance({ ctx: c.get("ctx"), input }), 200);
  });
  r.openapi(tree, (c) => c.json(instanceActivityTree({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(variables, async (c) => {
    const input = { ...c.req.valid("param"), ...c.req.valid("json") };
    return c.json(await putInstanceVariables({ ctx: c.get("ctx"), input }), 200);
  });
}
