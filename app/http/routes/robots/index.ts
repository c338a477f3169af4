import { createRoute } from "@hono/zod-openapi";
import { createRouter } from "../../router";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { z } from "@hono/zod-openapi";
import {
  createRobot,
  deleteRobot,
  getRobot,
  getRobotConfig,
  listRobots,
  putRobotConfig,
  updateRobot,
} from "../../../services/robots/manage";
import {
  common,
  CreateRobotBody,
  KeyParam,
  PutRobotConfigBody,
  RobotConfigSchema,
  RobotSchema,
  UpdateRobotBody,
} from "./schema";

const list = createRoute({
  ...common,
  method: "get",
  path: "/a/robots",
  summary: "Robots of the tenant (Admin)",
  responses: { 200: { description: "Robots", ...json(z.array(RobotSchema)) }, ...errorResponses },
});
const create = createRoute({
  ...common,
  method: "post",
  path: "/a/robots",
  summary: "Create a robot: key, name, description, parameter definitions (Admin)",
  request: { body: { ...json(CreateRobotBody), required: true } },
  responses: { 201: { description: "Created", ...json(RobotSchema) }, ...errorResponses },
});
const get = createRoute({
  ...common,
  method: "get",
  path: "/a/robots/{key}",
  summary: "One robot (Admin)",
  request: { params: KeyParam },
  responses: { 200: { description: "Robot", ...json(RobotSchema) }, ...errorResponses },
});
const update = createRoute({
  ...common,
  method: "put",
  path: "/a/robots/{key}",
  summary: "Replace a robot's name, description and parameter definitions (Admin)",
  request: { params: KeyParam, body: { ...json(UpdateRobotBody), required: true } },
  responses: { 200: { description: "Updated", ...json(RobotSchema) }, ...errorResponses },
});
const remove = createRoute({
  ...common,
  method: "delete",
  path: "/a/robots/{key}",
  summary: "Delete a robot (Admin)",
  request: { params: KeyParam },
  responses: { 204: { description: "Deleted" }, ...errorResponses },
});
const getConfig = createRoute({
  ...common,
  method: "get",
  path: "/a/robots/{key}/config",
  summary: "Parameter configuration; secret parameters show the tenant variable they refer to (Admin)",
  request: { params: KeyParam },
  responses: { 200: { description: "Configuration", ...json(RobotConfigSchema) }, ...errorResponses },
});
const putConfig = createRoute({
  ...common,
  method: "put",
  path: "/a/robots/{key}/config",
  summary: "Replace the parameter configuration (Admin)",
  request: { params: KeyParam, body: { ...json(PutRobotConfigBody), required: true } },
  responses: { 200: { description: "Configuration", ...json(RobotConfigSchema) }, ...errorResponses },
});

/** /a/robots: every route Admin (SUPER_ADMIN passes). */
export function robotsRouter() {
  const r = createRouter();
  r.openapi(list, (c) => c.json(listRobots({ ctx: c.get("ctx") }), 200));
  r.openapi(create, (c) => c.json(createRobot({ ctx: c.get("ctx"), input: c.req.valid("json") }), 201));
  r.openapi(get, (c) => c.json(getRobot({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(update, (c) =>
    c.json(updateRobot({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  r.openapi(remove, (c) => {
    deleteRobot({ ctx: c.get("ctx"), input: c.req.valid("param") });
    return c.body(null, 204);
  });
  r.openapi(getConfig, (c) => c.json(getRobotConfig({ ctx: c.get("ctx"), input: c.req.valid("param") }), 200));
  r.openapi(putConfig, (c) =>
    c.json(putRobotConfig({ ctx: c.get("ctx"), input: { ...c.req.valid("json"), ...c.req.valid("param") } }), 200),
  );
  return r;
}
