import type { Context } from "hono";
import type { PlatformCtx } from "../services/context";
import type { AppEnv } from "./env";

/**
 * The ctx of an operation outside any tenant (platform administration): the platform's ports and what the request
 * knows of its call. With the middleware, the only HTTP code that touches ports.
 */
export function platformCtx(c: Context<AppEnv>): PlatformCtx {
  const actor = c.var.auth?.actor ?? null;
  return {
    ...c.var.platform.ports,
    actor,
    channel: actor?.channel ?? "REST",
    requestId: c.var.requestId,
    clock: c.var.platform.clock,
  };
}
