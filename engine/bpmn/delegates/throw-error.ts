import { BpmnError, type Delegate } from "./types";

/** Raises a BPMN error with the given code, for error boundary events and error event subprocesses. */
export const throwErrorDelegate: Delegate = {
  name: "throw-error",
  description: "Throws a BPMN error caught by an error boundary event or error event subprocess",
  parameters: [
    {
      name: "errorCode",
      type: "string",
      required: true,
      description: "code matched against errorRef of the catching event",
    },
    { name: "message", type: "string", required: false, description: "error message" },
  ],
  execute(ctx) {
    const code = String(ctx.params.errorCode ?? ctx.params.code ?? "");
    if (!code) throw new Error("throw-error needs an errorCode parameter");
    throw new BpmnError(code, ctx.params.message ? String(ctx.params.message) : undefined);
  },
};
