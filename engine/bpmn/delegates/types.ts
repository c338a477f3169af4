/** A BPMN error raised by a delegate or an error end event; caught by error boundary events and event subprocesses. */
export class BpmnError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? `BPMN error ${code}`);
    this.name = "BpmnError";
  }
}

export interface DelegateParameter {
  name: string;
  type: "string" | "number" | "boolean" | "json" | "expression";
  required: boolean;
  description: string;
}

/** What a delegate sees: its resolved parameters (fields) and the variables of the execution. */
export interface DelegateContext {
  tenantId: string;
  instanceId: string;
  /** key of the process definition (the CMMN adapter passes the case key) */
  definitionKey: string;
  /** user who started the instance, null for an API key or the system */
  startedBy: string | null;
  businessKey: string | null;
  activityId: string;
  params: Record<string, unknown>;
  getVariable(name: string): unknown;
  variables(): Record<string, unknown>;
  setVariable(name: string, value: unknown): void;
  log(message: string, data?: Record<string, unknown>): void;
  /**
   * Does work outside the engine (asking a model, sending an HTTP request) once per command run: a command computed again after a revision
   * conflict gets the first attempt's answer, or its failure, instead (engine/once.ts). `key` names the work within
   * the step. Set the variables from the answer on every attempt: only the committing attempt's changes are written.
   */
  once<T>(key: string, work: () => Promise<T>): Promise<T>;
}

/**
 * The engine's only way to the network: fetches a URL under the host's outbound policy (address checks, pinning,
 * redirects). The engine does no DNS of its own; app/outbound supplies it.
 */
export type OutboundFetch = (url: string, init: RequestInit) => Promise<Response>;

/** A built-in service-task implementation; describe parameters so GET /a/delegates can list them. */
export interface Delegate {
  name: string;
  description: string;
  parameters: DelegateParameter[];
  execute(ctx: DelegateContext): void | Promise<void>;
}

export interface DelegateRegistry {
  get(ref: string): Delegate | undefined;
  list(): Array<Pick<Delegate, "name" | "description" | "parameters">>;
  register(d: Delegate, aliases?: string[]): void;
}
