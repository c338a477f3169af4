// The error vocabulary lives once, in engine/errors.ts (the lowest layer that raises it); services use it from here.
export {
  BadRequestError,
  ConflictError,
  EngineError as AppError,
  type FieldError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  PayloadTooLargeError,
  PaymentRequiredError,
  ServiceUnavailableError,
  TooManyRequestsError,
  UnauthorizedError,
  UnprocessableError,
} from "../../engine/errors";
