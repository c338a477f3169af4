/** A field-level validation problem, reported in `fieldErrors`. */
export interface FieldError {
  field: string;
  message: string;
}

/** Base of every error a service raises on purpose; the HTTP layer maps `status` to the response. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors?: FieldError[],
  ) {
    super(message);
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, fieldErrors?: FieldError[]) {
    super(400, message, fieldErrors);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = "Authentication required") {
    super(401, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = "Access denied") {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = "Resource not found") {
    super(404, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(413, message);
  }
}
export class UnprocessableError extends AppError {
  constructor(message: string, fieldErrors?: FieldError[]) {
    super(422, message, fieldErrors);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(message = "Too many requests, try again later") {
    super(429, message);
  }
}
export class ServiceUnavailableError extends AppError {
  constructor(message: string) {
    super(503, message);
  }
}
