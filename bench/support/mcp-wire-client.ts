// A minimal MCP client over Streamable HTTP for benchmarks: JSON-RPC POSTs with fetch, the way the REST side of a
// benchmark sends its requests. It measures what the server costs per call; the SDK's `Client` adds its own work
// (result validation, an SSE parser stream per answer) on the same cores, which bench:mcp reports separately.
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC results of several tools, checked where they are used
type Json = any;

export interface ToolResult {
  isError?: boolean;
  structuredContent?: Record<string, Json>;
  content: { type: string; text: string }[];
}

/** The JSON-RPC message answering `id` in a POST's answer: a JSON body, or an event stream's `data:` lines. */
async function answerOf(res: Response, id: number): Promise<Json> {
  const text = await res.text();
  if (!res.headers.get("content-type")?.includes("text/event-stream")) return JSON.parse(text);
  for (const line of text.split("\n")) {
    if (!line.startsWith("data:")) continue;
    const message = JSON.parse(line.slice(5));
    if (message.id === id) return message;
  }
  throw new Error(`no answer to request ${id} in: ${text.slice(0, 200)}`);
}

export class McpWireClient {
  private nextId = 1;
  private headers: Record<string, string>;

  private constructor(
    private readonly url: string,
    headers: Record<string, string>,
  ) {
    this.headers = { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" };
  }

  /** Opens a session: initialize, then the initialized notification, as the SDK's client does. */
  static async connect(url: string, headers: Record<string, string>): Promise<McpWireClient> {
    const c = new McpWireClient(url, headers);
    const res = await c.post({
      jsonrpc: "2.0",
      id: c.nextId++,
      method: "initialize",
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "bench-wire", version: "1" },
      },
    });
    const init = await answerOf(res, 1);
    const session = res.headers.get("mcp-session-id");
    if (!session || init.error) throw new Error(`initialize failed: ${JSON.stringify(init)}`);
    c.headers = { ...c.headers, "mcp-session-id": session, "mcp-protocol-version": init.result.protocolVersion };
    const ack = await c.post({ jsonrpc: "2.0", method: "notifications/initialized" });
    if (ack.status !== 202) throw new Error(`initialized: ${ack.status}`);
    return c;
  }

  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const id = this.nextId++;
    const res = await this.post({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    if (res.status !== 200) throw new Error(`tools/call ${name}: ${res.status} ${await res.text()}`);
    const message = await answerOf(res, id);
    if (message.error) throw new Error(`tools/call ${name}: ${message.error.message}`);
    return message.result as ToolResult;
  }

  async close(): Promise<void> {
    await fetch(this.url, { method: "DELETE", headers: this.headers }).catch(() => {});
  }

  private post(body: unknown): Promise<Response> {
    return fetch(this.url, { method: "POST", headers: this.headers, body: JSON.stringify(body) });
  }
}
