/**
 * `npm run mcp:stdio -- --url http://127.0.0.1:8080 --tenant acme`: MCP over stdio for local clients (desktop
 * assistants, IDEs), forwarding to a running server's /api/a/mcp. A proxy made of the SDK's Client and Server: the
 * tools are the server's, listed and called there; nothing is implemented twice. Credentials come from
 * SVC_MCP_EMAIL and SVC_MCP_PASSWORD (never on the command line, where other users could read them). When the
 * service restarts or drops the session, the proxy starts a new one by itself (stdio-upstream.ts) and says so on
 * stderr; stdout carries the protocol only.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { parseArgs } from "node:util";
import { ReconnectingUpstream } from "./stdio-upstream";

const { values } = parseArgs({
  options: { url: { type: "string", default: "http://127.0.0.1:8080" }, tenant: { type: "string" } },
});
const email = process.env.SVC_MCP_EMAIL;
const password = process.env.SVC_MCP_PASSWORD;
if (!email || !password) {
  process.stderr.write("Set SVC_MCP_EMAIL and SVC_MCP_PASSWORD to a platform user's e-mail and password\n");
  process.exit(2);
}
const headers: Record<string, string> = {
  authorization: `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`,
  ...(values.tenant ? { "x-tenant-id": values.tenant } : {}),
};
const log = (line: string) => process.stderr.write(`[svc-mcp-stdio ${new Date().toISOString()}] ${line}\n`);
const upstream = new ReconnectingUpstream({ endpoint: new URL("/api/a/mcp", values.url), headers, log });
const first = await upstream.current();

const proxy = new Server(first.getServerVersion() ?? { name: "svc-mcp", version: "0.1.0" }, {
  capabilities: { tools: {} },
  instructions: first.getInstructions(),
});
proxy.setRequestHandler(ListToolsRequestSchema, (req) => upstream.listTools(req.params));
// The answer is passed on as the server gave it (a tool error stays a tool error; no second validation here).
proxy.setRequestHandler(CallToolRequestSchema, (req) => upstream.callTool(req.params));
proxy.onclose = () => void upstream.close();
await proxy.connect(new StdioServerTransport());
