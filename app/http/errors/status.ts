import type { ErrorCode } from "../../../engine/errors";

/** The one code -> HTTP status table; tenants/ errors carry the same codes without importing engine/. */
export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYMENT_REQUIRED: 402,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** The status for an error carrying one of our codes, or undefined for anything else. */
export function statusOfError(err: unknown): number | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" && Object.hasOwn(STATUS_OF_CODE, code)
    ? STATUS_OF_CODE[code as ErrorCode]
    : undefined;
}
