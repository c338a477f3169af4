/** Base class of every error the DMN engine raises on purpose; `code` lets the HTTP layer map it without instanceof chains. */
export class DmnError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.code = code;
    this.name = new.target.name;
  }
}

/** The XML is not a usable DMN model; `element` names the id (or tag) at fault. */
export class DmnParseError extends DmnError {
  readonly element?: string;
  constructor(message: string, element?: string) {
    super("DMN_PARSE", element ? `${message} (element '${element}')` : message);
    this.element = element;
  }
}

export interface EvaluationErrorDetails {
  decision?: string;
  rule?: string;
  expression?: string;
}

/** Evaluation failed on the given data (hit policy violation, value outside allowed values, bad input type, ...). */
export class DmnEvaluationError extends DmnError {
  readonly decision?: string;
  readonly rule?: string;
  readonly expression?: string;
  constructor(message: string, details: EvaluationErrorDetails = {}) {
    super("DMN_EVALUATION", withDetails(message, details));
    this.decision = details.decision;
    this.rule = details.rule;
    this.expression = details.expression;
  }
}

/** No decision (or decision service) with that key or name exists in the model. */
export class DmnDecisionNotFoundError extends DmnError {
  readonly key: string;
  constructor(key: string) {
    super("DMN_DECISION_NOT_FOUND", `no decision '${key}' in this model`);
    this.key = key;
  }
}

/** A JSON table edit is malformed; `path` points into the submitted JSON. */
export class DmnValidationError extends DmnError {
  readonly path: string;
  constructor(message: string, path: string) {
    super("DMN_VALIDATION", `${path}: ${message}`);
    this.path = path;
  }
}

function withDetails(message: string, d: EvaluationErrorDetails): string {
  const parts: string[] = [];
  if (d.decision) parts.push(`decision '${d.decision}'`);
  if (d.rule) parts.push(`rule '${d.rule}'`);
  if (d.expression !== undefined) parts.push(`expression '${d.expression}'`);
  return parts.length ? `${message} [${parts.join(", ")}]` : message;
}
