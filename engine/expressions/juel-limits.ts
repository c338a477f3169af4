import { ExpressionError } from "../errors";
import { FEEL_SIZE_LIMITS } from "../feel/value-size";

/** An expression over a size limit (length, nesting): the deploy refuses the model naming the element and the limit. */
export class ExpressionLimitError extends ExpressionError {}

/** JUEL's string concatenation (`+`, templates) obeys the same string cap as FEEL. */
export function assertJuelString(chars: number): true {
  if (chars > FEEL_SIZE_LIMITS.stringChars)
    throw new ExpressionError(
      `the expression would build a string of more than ${FEEL_SIZE_LIMITS.stringChars.toLocaleString("en")} characters, the size limit of a string value`,
    );
  return true;
}
