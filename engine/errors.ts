/**
 * The one error vocabulary of the service. The engine is the lowest layer that raises these, so they live
 * here; app/services re-exports them and app/http/errors maps each `code` to an HTTP status in one table.
 */
export type ErrorCode =
  | "BAD_REQUEST"
  | "UNAUTHORIZED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "CONFLICT"
  | "PAYMENT_REQUIRED"
  | "PAYLOAD_TOO_LARGE"
  | "UNPROCESSABLE"
  | "TOO_MANY_REQUESTS"
  | "INTERNAL"
  | "SERVICE_UNAVAILABLE";

/** @deprecated the former name of ErrorCode. */
export type EngineErrorCode = ErrorCode;

/** A field-level validation problem, reported in `fieldErrors`. */
export interface FieldError {
  field: string;
  message: string;
}

/** Field errors (services) or free details (engine); details naming a `field` also yield a field error. */
export type ErrorExtra = FieldError[] | Record<string, unknown>;

/** Base of every error raised on purpose; `code` decides the HTTP status. */
export class EngineError extends Error {
  readonly details?: Record<string, unknown>;
  readonly fieldErrors?: FieldError[];
  constructor(
    readonly code: ErrorCode,
    message: string,
    extra?: ErrorExtra,
  ) {
    super(message);
    this.name = new.target.name;
    if (Array.isArray(extra)) this.fieldErrors = extra;
    else if (extra) {
      this.details = extra;
      if (typeof extra.field === "string") this.fieldErrors = [{ field: extra.field, message }];
    }
  }
}

/** Malformed or invalid input, including a model the engine refuses to deploy. */
export class BadRequestError extends EngineError {
  constructor(message: string, extra?: ErrorExtra) {
    super("BAD_REQUEST", message, extra);
  }
}
export class UnauthorizedError extends EngineError {
  constructor(message = "Authentication required") {
    super("UNAUTHORIZED", message);
  }
}
export class ForbiddenError extends EngineError {
  constructor(message = "Access denied") {
    super("FORBIDDEN", message);
  }
}
/** Unknown id, or an id that belongs to another tenant (never reveal which). */
export class NotFoundError extends EngineError {
  constructor(message = "Resource not found", extra?: ErrorExtra) {
    super("NOT_FOUND", message, extra);
  }
}
/** The operation does not fit the current state (task already completed, claimed by someone else, suspended...). */
export class ConflictError extends EngineError {
  constructor(message: string, extra?: ErrorExtra) {
    super("CONFLICT", message, extra);
  }
}
/** An AI call over the tenant's quota or the user's ceiling, or with no tenant quota configured where one is needed. */
export class PaymentRequiredError extends EngineError {
  constructor(message: string) {
    super("PAYMENT_REQUIRED", message);
  }
}
export class PayloadTooLargeError extends EngineError {
  constructor(message: string) {
    super("PAYLOAD_TOO_LARGE", message);
  }
}
/** Well-formed input that cannot be processed (e.g. a failing step that rolled the command back). */
export class UnprocessableError extends EngineError {
  constructor(message: string, extra?: ErrorExtra) {
    super("UNPROCESSABLE", message, extra);
  }
}
export class TooManyRequestsError extends EngineError {
  /** `retryAfterSeconds` becomes the answer's Retry-After header (every 429 carries one). */
  constructor(
    message = "Too many requests, try again later",
    readonly retryAfterSeconds = 60,
  ) {
    super("TOO_MANY_REQUESTS", message);
  }
}
/** A failure reported with its message (not hidden like an unexpected exception). */
export class InternalError extends EngineError {
  constructor(message: string) {
    super("INTERNAL", message);
  }
}
export class ServiceUnavailableError extends EngineError {
  constructor(message: string) {
    super("SERVICE_UNAVAILABLE", message);
  }
}

/**
 * A delegate (service task implementation) failed: a refused or unreachable endpoint, a bad answer. It is the
 * step's failure, never a server error: a synchronous command answers 422 with the reason and writes nothing; a job
 * records it and retries, then dead-letters.
 */
export class DelegateFailure extends UnprocessableError {}

/** Refusal of a BPMN file at deploy: malformed XML, no executable process, unsupported construct. */
export class BpmnDeployError extends BadRequestError {}

/** An expression that cannot be parsed or evaluated; surfaces as a failed step. */
export class ExpressionError extends BadRequestError {}

/** Internal: another writer changed the instance since it was read; the command is retried. */
export class RevisionConflict extends Error {
  constructor(readonly instanceId: string) {
    super(`instance ${instanceId} was changed concurrently`);
  }
}
