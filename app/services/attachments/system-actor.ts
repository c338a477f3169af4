import type { Actor } from "../context";
import { ForbiddenError } from "../errors";

/** The actor of a task acting on its own tenant's attachments (passes role checks, never the delete rule). */
export const SYSTEM_ACTOR: Actor = {
  kind: "system",
  userId: null,
  email: null,
  isSuperAdmin: false,
  tenantRoles: [],
  apiKeyId: null,
  channel: "SYSTEM",
};

/**
 * The system actor rule for agent tool calls: a task acts as the system only inside a tool call routed to a
 * tenant, and only on that tenant. No routed tenant, or a declared tenant other than the routed one, is refused.
 * Returns the tenant the call may act on.
 */
export function systemTenantForToolCall(call: {
  routedTenantId: string | null | undefined;
  declaredTenantId?: string | null;
}): string {
  const routed = call.routedTenantId;
  if (!routed)
    throw new ForbiddenError("A task acts as the system on attachments only inside a tool call with a routed tenant");
  if (call.declaredTenantId && call.declaredTenantId !== routed) {
    throw new ForbiddenError(`The agent declared tenant ${call.declaredTenantId} but the call is routed to ${routed}`);
  }
  return routed;
}
