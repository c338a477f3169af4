/** Error codes the HTTP layer maps to statuses: NOT_FOUND 404, CONFLICT 409, BAD_REQUEST 400, UNPROCESSABLE 422. */
export type EngineErrorCode = "NOT_FOUND" | "CONFLICT" | "BAD_REQUEST" | "UNPROCESSABLE";

/** Base of every error the engine and the process runtime raise on purpose; `code` decides the HTTP status. */
export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Unknown id, or an id that belongs to another tenant (never reveal which). */
export class NotFoundError extends EngineError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("NOT_FOUND", message, details);
  }
}

/** The operation does not fit the current state (task already completed, claimed by someone else, suspended...). */
export class ConflictError extends EngineError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("CONFLICT", message, details);
  }
}

/** Invalid input, including a model the engine refuses to deploy. */
export class BadRequestError extends EngineError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("BAD_REQUEST", message, details);
  }
}

/** Well-formed input that cannot be processed (e.g. a failing step that rolled the command back). */
export class UnprocessableError extends EngineError {
  constructor(message: string, details?: Record<string, unknown>) {
    super("UNPROCESSABLE", message, details);
  }
}

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
