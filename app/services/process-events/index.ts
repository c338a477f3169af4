import type { Correlated } from "../../../engine/bpmn";
import type { TenantCtx } from "../context";
import { admitted } from "../admission";

export type ProcessEventsCtx = TenantCtx<"processRuntime">;

export interface MessageInput {
  messageName: string;
  businessKey?: string | null;
  correlationKeys?: Record<string, unknown>;
  variables?: Record<string, unknown>;
  all?: boolean;
}

export const correlateMessage = admitted(correlateMessageNow);
/**
 * POST /a/messages: delivers a message to the waiting catch it matches (intermediate, boundary, receive task, event
 * subprocess), else starts a process by its message start event. 404 when nothing matches, 409 when several match
 * and `all` is not set. Tenant-wide, like starting an instance: integrations correlate by business key or variables.
 */
async function correlateMessageNow({ ctx, input }: { ctx: ProcessEventsCtx; input: MessageInput }) {
  const { messageName, ...opts } = input;
  const correlated: Correlated[] = await ctx.processRuntime.correlateMessage(ctx.tenant.id, messageName, opts);
  return { messageName, correlated };
}

export const broadcastSignal = admitted(broadcastSignalNow);
/** POST /a/signals: broadcasts to every waiting signal catch and signal start event of the tenant. */
async function broadcastSignalNow({
  ctx,
  input,
}: {
  ctx: ProcessEventsCtx;
  input: { signalName: string; variables?: Record<string, unknown> };
}) {
  const { triggered } = await ctx.processRuntime.signal(ctx.tenant.id, input.signalName, input.variables);
  return { signalName: input.signalName, triggered };
}
