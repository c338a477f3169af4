import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError } from "../../services/errors";
import { errorBody } from "./error-body";

/** Status for errors raised by layers that cannot import app/ (engine, tenants): they carry a `code`. */
const CODE_STATUS: Record<string, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  SERVICE_UNAVAILABLE: 503,
};

/** Maps any thrown error to the spec's error body; unknown errors become a 500 without internals. */
export function handleError(err: unknown, c: Context): Response {
  const path = new URL(c.req.url).pathname;
  if (err instanceof AppError) {
    return c.json(errorBody(err.status, err.message, path, err.fieldErrors), err.status as 400);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const message = err.message || (status === 400 ? "Malformed request" : "Request failed");
    return c.json(errorBody(status, message, path), status);
  }
  const code = (err as { code?: unknown })?.code;
  if (typeof code === "string" && CODE_STATUS[code]) {
    const e = err as {
      message: string;
      fieldErrors?: { field: string; message: string }[];
      details?: { field?: unknown };
    };
    const status = CODE_STATUS[code];
    const fieldErrors =
      e.fieldErrors ??
      (typeof e.details?.field === "string" ? [{ field: e.details.field, message: e.message }] : undefined);
    return c.json(errorBody(status, e.message, path, fieldErrors), status as 400);
  }
  console.error(`[error] ${c.req.method} ${path}`, err);
  return c.json(errorBody(500, "Internal server error", path), 500);
}
