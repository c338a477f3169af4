import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "./server";

/** A test service listening on 127.0.0.1 (MCP clients speak real HTTP). */
export async function startListening(env: Record<string, string> = {}) {
  const s = await startTestServer({ env });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 255,
    fetch: (req, srv) => s.app.fetch(req, { server: srv }),
  });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    s,
    base,
    url: new URL(`${base}/api/a/mcp`),
    async close() {
      server.stop(true);
      await s.close();
    },
  };
}

export const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;

/** An SDK client connected with HTTP Basic and, when given, X-Tenant-ID. */
export async function mcpClient(url: URL, cred: { email: string; password: string; tenant?: string }) {
  const headers: Record<string, string> = { authorization: basic(cred.email, cred.password) };
  if (cred.tenant) headers["x-tenant-id"] = cred.tenant;
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC `initialize` POST (tests that inspect the HTTP answer itself: status, headers, session id). */
export const rawInitialize = (url: URL, headers: Record<string, string>) =>
  fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });

export type Listening = Awaited<ReturnType<typeof startListening>>;
export type { TestServer };
