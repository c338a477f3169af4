import { checkDestination, DestinationRefused, systemResolver } from "../../outbound";
import { WEBHOOK_EVENT_TYPES } from "../../runtime/kernel/webhook-events";
import { BadRequestError } from "../errors";

export { WEBHOOK_EVENT_TYPES };
import type { WebhooksPort } from "./port";

const bad = (field: string, message: string) => new BadRequestError(`${field} ${message}`, [{ field, message }]);

/**
 * The target must be http(s) and pass the SSRF policy now (every delivery checks it again, redirects too). Also the
 * check of a registered MCP server's URL, under that port's policy.
 */
export async function checkTargetUrl(port: Pick<WebhooksPort, "policy">, url: string): Promise<string> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw bad("url", "must be an absolute http or https URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw bad("url", "must use http or https");
  if (u.username || u.password) throw bad("url", "must not carry credentials");
  try {
    await checkDestination(u.hostname, port.policy.allowedPrivate ?? [], port.policy.resolver ?? systemResolver);
  } catch (e) {
    if (e instanceof DestinationRefused) throw bad("url", `is refused: ${e.message}`);
    throw bad("url", `cannot be resolved: ${e instanceof Error ? e.message : e}`);
  }
  return u.toString();
}

/** A non-empty list of the event types emitted today. */
export function checkEvents(events: unknown): string[] {
  const ok =
    Array.isArray(events) &&
    events.length > 0 &&
    events.every((e) => typeof e === "string" && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(e));
  if (!ok) throw bad("events", `must be a non-empty list of: ${WEBHOOK_EVENT_TYPES.join(", ")}`);
  return [...new Set(events as string[])];
}
