import type { FieldError } from "../../services/errors";

const REASONS: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Entity",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export function reasonPhrase(status: number): string {
  return REASONS[status] ?? "Error";
}

/** ISO 8601 local date-time without zone, as the spec's error body requires. */
export function localTimestamp(d = new Date()): string {
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

/** The one error body of the API: `{status, error, message, path, timestamp, fieldErrors?}`. */
export function errorBody(status: number, message: string, path: string, fieldErrors?: FieldError[]) {
  const body: Record<string, unknown> = {
    status,
    error: reasonPhrase(status),
    message,
    path,
    timestamp: localTimestamp(),
  };
  if (fieldErrors?.length) body.fieldErrors = fieldErrors;
  return body;
}
