import { DmnError } from "../../../engine/dmn";
import { BadRequestError, InternalError, NotFoundError, UnprocessableError } from "../errors";

/** Translates the DMN engine's typed errors into the API's: bad models 400, evaluation failures 422. */
export function toAppError(e: unknown): unknown {
  if (!(e instanceof DmnError)) return e;
  switch (e.code) {
    case "DMN_PARSE":
      return new BadRequestError(`Invalid DMN: ${e.message}`);
    case "DMN_VALIDATION":
      return new BadRequestError(`Invalid decision table: ${e.message}`, [
        { field: (e as DmnError & { path: string }).path, message: e.message },
      ]);
    case "DMN_DECISION_NOT_FOUND":
      return new NotFoundError(e.message);
    case "DMN_EVALUATION":
      return new UnprocessableError(`Decision evaluation failed: ${e.message}`);
    default:
      return new InternalError(e.message);
  }
}

/** Runs fn and rethrows DMN errors as API errors. */
export async function withDmnErrors<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    throw toAppError(e);
  }
}
