/**
 * A tool parameter of an activity inside an agent-loop ad-hoc sub-process (docs/agents.md, "Markup"): an input mapping
 * whose value is `fromAi(toolCall.<name>, "<description>", "<type>")`, filled by the model when it calls the activity.
 * The engine reads it (engine/model/bpmn/agent-tools.ts); the console only writes and shows it, so it keeps its own
 * small reader of the same notation (the browser code imports no server module).
 */
export interface ToolParam {
  name: string;
  description: string;
  type: string;
}

export const TOOL_PARAM_TYPES = ["string", "number", "integer", "boolean", "array", "object"] as const;

const FROM_AI =
  /^\s*(?:=|\$\{)?\s*fromAi\s*\(\s*(?:toolCall\.)?([A-Za-z_]\w*)\s*(?:,\s*"((?:[^"\\]|\\.)*)"\s*)?(?:,\s*"(\w+)"\s*)?[,)]/;

/** The parameter a mapping's value declares, or null for an ordinary input mapping. */
export function parseToolParam(value: string | undefined): (Omit<ToolParam, "name"> & { ref: string }) | null {
  const m = FROM_AI.exec(value ?? "");
  if (!m) return null;
  const type = (m[3] ?? "string").toLowerCase();
  return {
    ref: m[1],
    description: (m[2] ?? "").replace(/\\"/g, '"'),
    type: (TOOL_PARAM_TYPES as readonly string[]).includes(type) ? type : "string",
  };
}

/**
 * The mapping's value for a parameter. The description stays one string argument: quotes escaped, backslashes left
 * out (the engine unescapes quotes only) and lines joined.
 */
export function formatToolParam(p: ToolParam): string {
  const description = p.description.replace(/\\/g, "").replace(/"/g, '\\"').replace(/\s+/g, " ");
  return `fromAi(toolCall.${p.name}, "${description}", "${p.type}")`;
}

/** A parameter name the model can fill and the engine reads: a letter or `_`, then letters, digits or `_`. */
export const isParamName = (name: string) => /^[A-Za-z_]\w*$/.test(name);
