import type { ValidationResult } from "../../runtime/bpmn";
import { isModeler, type TenantCtx } from "../context";
import { BadRequestError, ForbiddenError } from "../errors";
import { admitted } from "../admission";

export type ValidateCtx = TenantCtx<"processRuntime">;

/** What a validation answers: `valid` is false only when a finding is an error (the model would not deploy). */
export interface ValidationOut extends ValidationResult {
  valid: boolean;
}

export const validateProcess = admitted(validateProcessNow);
/**
 * POST /a/definitions/validate (Modeler), MCP's `svc_process_validate`: the structural checks of a BPMN without
 * deploying it and without a model (orphans, dead ends, gateways with no default flow, a missing diagram section),
 * plus the deploy warnings. XML that is not BPMN answers 400; a model the engine refuses is an "error" finding.
 */
async function validateProcessNow({ ctx, input }: { ctx: ValidateCtx; input: { xml: string } }) {
  if (!isModeler(ctx.actor)) throw new ForbiddenError("This operation requires the MODELER or ADMIN role");
  if (!input.xml?.trim())
    throw new BadRequestError("xml is required", [{ field: "xml", message: "must not be blank" }]);
  const r = await ctx.processRuntime.validate(input.xml);
  return { valid: !r.findings.some((f) => f.severity === "error"), ...r } satisfies ValidationOut;
}
