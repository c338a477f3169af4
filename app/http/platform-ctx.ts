import type { Context } from "hono";
import type { AppEnv } from "./env";
import type { PlatformCtx } from "../services/context";

/**
 * The ctx of an operation outside any tenant (sessions, platform administration): every platform port, the caller
 * when authentication ran, and the request's id and clock.
 */
export function platformCtx(c: Context<AppEnv>): PlatformCtx {
  const { ports, clock } = c.get("deps");
  const actor = c.get("auth")?.actor ?? null;
  return { ...ports, actor, channel: actor?.channel ?? "REST", requestId: c.get("requestId"), clock };
}
