/**
 * Pieces every AI feature puts in its prompts. Inputs are clipped so one request cannot send an unbounded prompt
 * (and spend the tenant's quota on it); the model is told when something was cut.
 */
export const MAX_PROMPT_XML_CHARS = 120_000;
export const MAX_PROMPT_TEXT_CHARS = 20_000;

export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… cut: ${text.length - max} more characters]`;
}

/** A BPMN model as the prompt carries it. */
export const bpmnBlock = (xml: string) => `BPMN 2.0 XML:\n\`\`\`xml\n${clip(xml, MAX_PROMPT_XML_CHARS)}\n\`\`\``;

/** Values (variables, a draft) as the prompt carries them. */
export const jsonBlock = (label: string, value: unknown) =>
  `${label}:\n\`\`\`json\n${clip(JSON.stringify(value ?? null, null, 1), MAX_PROMPT_TEXT_CHARS)}\n\`\`\``;
