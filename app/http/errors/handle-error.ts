import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { type FieldError, TooManyRequestsError } from "../../services/errors";
import { errorBody } from "./error-body";
import { statusOfError } from "./status";
import type { AppEnv } from "../env";

/** Maps any thrown error to the spec's error body; unknown errors become a 500 without internals. */
export function handleError(err: unknown, c: Context): Response {
  const path = new URL(c.req.url).pathname;
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = err.message || (status === 400 ? "Malformed request" : "Request failed");
    return c.json(errorBody(status, message, path), status);
  }
  const status = statusOfError(err);
  if (status !== undefined) {
    const e = err as { message: string; fieldErrors?: FieldError[] };
    if (err instanceof TooManyRequestsError) c.header("Retry-After", String(Math.max(1, err.retryAfterSeconds)));
    return c.json(errorBody(status, e.message, path, e.fieldErrors), status as 400);
  }
  const logger = (c as Context<AppEnv>).var.deps?.observability?.logger;
  if (logger) logger.error({ requestId: c.get("requestId"), method: c.req.method, path, err }, "unhandled error");
  else console.error(`[error] ${c.req.method} ${path}`, err);
  return c.json(errorBody(500, "Internal server error", path), 500);
}
