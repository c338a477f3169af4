import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { z } from "zod";

/**
 * A real remote MCP server on 127.0.0.1 for tests: the SDK's McpServer over its Streamable HTTP server transport
 * (stateless, a server per request), as a third party would run one. It records the headers of every request and
 * the tools called; `stop()` takes it down (the port then refuses connections).
 */
export interface RemoteMcp {
  url: string;
  /** Headers of each HTTP request received, lower-case names. */
  requests: Record<string, string>[];
  /** JSON-RPC methods received, in order (initialize, tools/list, tools/call, notifications). */
  methods: string[];
  /** tools/call received: tool name and arguments. */
  calls: { tool: string; args: Record<string, unknown> }[];
  stop(): void;
}

function buildServer(calls: RemoteMcp["calls"]): McpServer {
  const server = new McpServer({ name: "test-remote", version: "1.0.0" });
  const seen = (tool: string, args: Record<string, unknown>) => calls.push({ tool, args });
  server.registerTool(
    "lookup_order",
    {
      description: "Look up an order by its id",
      inputSchema: { orderId: z.string() },
      outputSchema: { orderId: z.string(), status: z.string(), refundable: z.boolean() },
    },
    async ({ orderId }) => {
      seen("lookup_order", { orderId });
      const out = { orderId, status: "delivered", refundable: true };
      return { content: [{ type: "text", text: `Order ${orderId} was delivered` }], structuredContent: out };
    },
  );
  server.registerTool(
    "delete_everything",
    { description: "Deletes every order (never offered to the test agents)", inputSchema: {} },
    async () => {
      seen("delete_everything", {});
      return { content: [{ type: "text", text: "deleted" }] };
    },
  );
  server.registerTool(
    "big_text",
    { description: "Answers a text of the given length", inputSchema: { chars: z.number().int() } },
    async ({ chars }) => {
      seen("big_text", { chars });
      return { content: [{ type: "text", text: "x".repeat(chars) }] };
    },
  );
  server.registerTool(
    "slow",
    { description: "Answers after the given time", inputSchema: { ms: z.number().int() } },
    async ({ ms }) => {
      seen("slow", { ms });
      await Bun.sleep(ms);
      return { content: [{ type: "text", text: "late" }] };
    },
  );
  server.registerTool("broken", { description: "Always fails", inputSchema: {} }, async () => {
    seen("broken", {});
    return { isError: true, content: [{ type: "text", text: "the order system is in maintenance" }] };
  });
  return server;
}

export function startRemoteMcp(): RemoteMcp {
  const requests: Record<string, string>[] = [];
  const calls: RemoteMcp["calls"] = [];
  const methods: string[] = [];
  const http = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 60,
    async fetch(req) {
      requests.push(Object.fromEntries(req.headers));
      if (new URL(req.url).pathname !== "/mcp") return new Response("not found", { status: 404 });
      if (req.method === "POST") {
        const body = (await req.clone().json()) as { method?: string } | { method?: string }[];
        for (const m of Array.isArray(body) ? body : [body]) if (m.method) methods.push(m.method);
      }
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      await buildServer(calls).connect(transport);
      return transport.handleRequest(req);
    },
  });
  return {
    url: `http://127.0.0.1:${http.port}/mcp`,
    requests,
    methods,
    calls,
    stop: () => http.stop(true),
  };
}
