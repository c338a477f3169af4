import { clip, MAX_PROMPT_TEXT_CHARS, MAX_PROMPT_XML_CHARS } from "../ai-models/prompts";

/**
 * An agent's inputs are clipped as every AI feature clips its prompt (app/services/ai-models/prompts.ts): each
 * variable to MAX_AGENT_VARIABLE_CHARS of JSON, then the whole prompt to MAX_AGENT_PROMPT_CHARS; a variable of a
 * process can be megabytes, and would otherwise go to the model whole and be paid from the tenant's quota. What was
 * cut is said in the text (for the model) and returned (for the tool-call audit).
 */
export const MAX_AGENT_VARIABLE_CHARS = MAX_PROMPT_TEXT_CHARS;
export const MAX_AGENT_PROMPT_CHARS = MAX_PROMPT_XML_CHARS;

/** The variables with every value longer than the limit (as JSON) replaced by its clipped JSON text. */
export function clipVariables(values: Record<string, unknown>): { values: Record<string, unknown>; cuts: string[] } {
  const cuts: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    const json = JSON.stringify(value ?? null) ?? "null";
    if (json.length <= MAX_AGENT_VARIABLE_CHARS) out[name] = value;
    else {
      out[name] = clip(json, MAX_AGENT_VARIABLE_CHARS);
      cuts.push(`${name} ${json.length} → ${MAX_AGENT_VARIABLE_CHARS}`);
    }
  }
  return { values: out, cuts };
}

/** The prompt of an agent run: its inputs, each variable and the whole clipped; `cuts` says what was cut. */
export function agentPrompt(inputs: Record<string, unknown>): { prompt: string; cuts: string[] } {
  const { values, cuts } = clipVariables(inputs);
  const whole = `Inputs:\n${JSON.stringify(values, null, 2)}`;
  if (whole.length > MAX_AGENT_PROMPT_CHARS) cuts.push(`whole prompt ${whole.length} → ${MAX_AGENT_PROMPT_CHARS}`);
  return { prompt: clip(whole, MAX_AGENT_PROMPT_CHARS), cuts };
}

/** The audit line of the cuts (characters of JSON, before → after). */
export const cutsDetail = (where: string, cuts: string[]) => `${where} clipped (characters): ${cuts.join("; ")}`;
