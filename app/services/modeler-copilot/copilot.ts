import { callerOf } from "../ai-models/caller";
import { bpmnBlock, clip, MAX_PROMPT_TEXT_CHARS } from "../ai-models/prompts";
import { isModeler, type TenantCtx } from "../context";
import { BadRequestError, ForbiddenError } from "../errors";
import { getProcessDoc } from "../definitions/documentation";

export type CopilotCtx = TenantCtx<"processRuntime" | "db" | "ai">;
export type CopilotMode = "explain" | "propose" | "forms";

export interface CopilotInput {
  question: string;
  /** The model on the modeler's canvas (unsaved changes included); else the latest deployed version of `processKey`. */
  bpmnXml?: string;
  processKey?: string;
  mode?: CopilotMode;
}

const BASE = `You are the copilot of a BPMN 2.0 process modeler (a Flowable-compatible engine: user tasks with
flowable:formKey and flowable:candidateGroups, service tasks, exclusive/inclusive/parallel gateways with FEEL or
\${...} conditions, timers, messages, signals, subprocesses). Be concrete and brief; use the element ids of the model.`;

const MODES: Record<CopilotMode, string> = {
  explain: "Explain the process or the part the question is about: its steps, decisions, participants and outcomes.",
  propose: `Propose changes that answer the question. Give each change as a BPMN XML fragment in a \`\`\`xml block
(elements and sequence flows in the bpmn namespace, ids that do not clash with the model's), each introduced by one
sentence saying where it goes and what it replaces.`,
  forms: `Suggest the forms of the process's user tasks (and its start form): for each, the task id, then its fields
as a \`\`\`json block {"fields": [{"key", "label", "type": "text|number|date|select|checkbox|textarea", "required",
"options"?}]} with keys matching the variables the process's conditions read.`,
};

/**
 * POST /a/modeler/copilot/stream (Modeler): the model's answer about the process being modelled, as a stream of
 * text. Everything that can refuse does so before the stream starts (403, 400, 404 for another tenant's key, 409
 * with no active model, 402 over the tenant quota or the user's ceiling or with no tenant quota configured), so
 * the route can still answer with a status; the tenant's quota is spent with the user id in the usage row.
 */
export function copilotStream({ ctx, input }: { ctx: CopilotCtx; input: CopilotInput }): AsyncGenerator<string> {
  if (!isModeler(ctx.actor)) throw new ForbiddenError("This operation requires the MODELER or ADMIN role");
  const question = input.question?.trim();
  if (!question)
    throw new BadRequestError("question is required", [{ field: "question", message: "must not be blank" }]);
  const mode = input.mode ?? "explain";
  const parts: string[] = [];
  if (input.processKey) {
    const doc = getProcessDoc({ ctx, input: { key: input.processKey } });
    parts.push(`Process key: ${input.processKey}`);
    if (doc.description) parts.push(`Its documentation:\n${clip(doc.description, MAX_PROMPT_TEXT_CHARS)}`);
  }
  const xml = input.bpmnXml?.trim()
    ? input.bpmnXml
    : input.processKey
      ? ctx.processRuntime.definitionXml(ctx.tenant.id, input.processKey)
      : null;
  parts.push(xml ? bpmnBlock(xml) : "(No model yet: the modeler's canvas is empty.)");
  parts.push(`Question: ${clip(question, MAX_PROMPT_TEXT_CHARS)}`);
  return ctx.ai.stream(callerOf(ctx, "copilot"), { system: `${BASE}\n\n${MODES[mode]}`, prompt: parts.join("\n\n") });
}
