import { createRoute } from "@hono/zod-openapi";
import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "../../env";
import { platformCtx } from "../../platform-ctx";
import { json } from "../../openapi-helpers";
import { errorResponses } from "../../errors/openapi-responses";
import { clientIp } from "../../middleware/client-ip";
import { forgotPassword, resetPassword } from "../../../services/auth/password-reset";
import { ForgotBody, MessageSchema, ResetBody } from "./schema";

const forgotRoute = createRoute({
  method: "post",
  path: "/auth/password/forgot",
  tags: ["auth"],
  // Public: no credential is needed (the OpenAPI document says so explicitly).
  security: [],
  summary: "Request a password reset token by e-mail",
  request: { body: { ...json(ForgotBody), required: true } },
  responses: {
    202: { description: "Accepted, whether or not the address is registered", ...json(MessageSchema) },
    ...errorResponses,
  },
});
const resetRoute = createRoute({
  method: "post",
  path: "/auth/password/reset",
  tags: ["auth"],
  // Public: no credential is needed (the OpenAPI document says so explicitly).
  security: [],
  summary: "Set a new password with a reset token",
  request: { body: { ...json(ResetBody), required: true } },
  responses: { 200: { description: "Password changed", ...json(MessageSchema) }, ...errorResponses },
});

export function registerPasswordRoutes(r: OpenAPIHono<AppEnv>) {
  r.openapi(forgotRoute, async (c) => {
    forgotPassword({ ctx: platformCtx(c), input: { email: c.req.valid("json").email, ip: clientIp(c) } });
    return c.json({ message: "If the address is registered, a reset token has been sent" }, 202);
  });
  r.openapi(resetRoute, async (c) => {
    await resetPassword({ ctx: platformCtx(c), input: c.req.valid("json") });
    return c.json({ message: "Password changed" }, 200);
  });
}
