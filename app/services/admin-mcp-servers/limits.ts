/**
 * Bounds of what a registered MCP server may send back (docs/limits.md). One HTTP answer (tools/list or tools/call,
 * JSON or an event stream) is cut past MCP_ANSWER_MAX_BYTES, so a server cannot make the service buffer without end;
 * a tool's result given to the model (its text and structured content as JSON) may be at most MCP_RESULT_MAX_CHARS,
 * as a tool result is part of the next prompt. Either refusal is a failed tool call told to the model.
 */
export const MCP_ANSWER_MAX_BYTES = 1024 * 1024;
export const MCP_RESULT_MAX_CHARS = 64 * 1024;
/** Tools taken from one server's catalogue (a model is offered a bounded list). */
export const MCP_TOOLS_PER_SERVER = 64;
