import { describe, expect, test } from "bun:test";
import { Hono } from "hono";
import type { AppEnv } from "../env";
import type { Actor, TenantRole } from "../../services/context";
import { handleError } from "../errors/handle-error";
import { requireAdmin, requireAuth, requireManager, requireManagerOrModeler, requireModeler } from "./roles";

function appWith(actor: Actor) {
  const app = new Hono<AppEnv>();
  app.onError(handleError);
  app.use("*", async (c, next) => {
    c.set("ctx", { actor } as never);
    await next();
  });
  app.get("/admin", requireAdmin, (c) => c.text("ok"));
  app.get("/manager", requireManager, (c) => c.text("ok"));
  app.get("/modeler", requireModeler, (c) => c.text("ok"));
  app.get("/manager-or-modeler", requireManagerOrModeler, (c) => c.text("ok"));
  app.get("/auth", requireAuth, (c) => c.text("ok"));
  return app;
}

const user = (roles: TenantRole[], isSuperAdmin = false): Actor => ({
  kind: "user",
  userId: "u",
  email: null,
  isSuperAdmin,
  tenantRoles: roles,
  apiKeyId: null,
  channel: "REST",
});
const key: Actor = {
  kind: "apiKey",
  userId: null,
  email: null,
  isSuperAdmin: false,
  tenantRoles: [],
  apiKeyId: "k",
  channel: "API_KEY",
};

const expected: Record<string, Record<string, number>> = {
  USER: { admin: 403, manager: 403, modeler: 403, "manager-or-modeler": 403, auth: 200 },
  MODELER: { admin: 403, manager: 403, modeler: 200, "manager-or-modeler": 200, auth: 200 },
  MANAGER: { admin: 403, manager: 200, modeler: 403, "manager-or-modeler": 200, auth: 200 },
  ADMIN: { admin: 200, manager: 200, modeler: 200, "manager-or-modeler": 200, auth: 200 },
  SUPER_ADMIN: { admin: 200, manager: 200, modeler: 200, "manager-or-modeler": 200, auth: 200 },
  API_KEY: { admin: 403, manager: 403, modeler: 403, "manager-or-modeler": 403, auth: 200 },
};

describe("role predicates", () => {
  for (const [who, routes] of Object.entries(expected)) {
    test(`${who} passes exactly the predicates the spec gives it`, async () => {
      const actor = who === "API_KEY" ? key : who === "SUPER_ADMIN" ? user([], true) : user([who as TenantRole]);
      const app = appWith(actor);
      for (const [route, status] of Object.entries(routes)) {
        const res = await app.request(`/${route}`);
        expect({ route, status: res.status }).toEqual({ route, status });
      }
    });
  }
});
