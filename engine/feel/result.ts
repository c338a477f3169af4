/** Why a FEEL text could not be compiled (syntax, or over a size limit) or evaluated on the given data (evaluation). */
export interface FeelError {
  kind: "syntax" | "limit" | "evaluation";
  /** The whole message, e.g. "invalid FEEL expression '1 +' at offset 3" or "FEEL evaluation failed: ...". */
  message: string;
  /** What went wrong, without the framing of `message`. */
  reason: string;
  /** The FEEL text at fault ("" when the failure came from a function called directly). */
  expression: string;
  /** What was thrown, when something was (e.g. a typed error of a function FEEL invoked). */
  cause?: unknown;
}

/** Errors are values, as in feelin: evaluation never throws on data. */
export type FeelResult<T> = { ok: true; value: T } | { ok: false; error: FeelError };

export const ok = <T>(value: T): FeelResult<T> => ({ ok: true, value });
export const fail = (error: FeelError): { ok: false; error: FeelError } => ({ ok: false, error });
