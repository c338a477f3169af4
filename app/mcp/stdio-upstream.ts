import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, ListToolsResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";

/** Re-initialization attempts after a lost session or connection, and the first wait (doubled each time, capped). */
export const RECONNECT_ATTEMPTS = 8;
export const RECONNECT_FIRST_DELAY_MS = 250;
export const RECONNECT_MAX_DELAY_MS = 4_000;

export interface UpstreamOptions {
  endpoint: URL;
  headers: Record<string, string>;
  log: (line: string) => void;
  attempts?: number;
  firstDelayMs?: number;
}

/**
 * Why a request failed in a way a new session can cure: the service forgot the session (404, after a restart or an
 * idle eviction: the MCP spec says the client must start a new one) or the connection itself failed (the service is
 * down or restarting). Any other error (401, a JSON-RPC error, a tool error) is the service's answer and passes on.
 */
export function sessionLost(e: unknown): string | null {
  if (e instanceof StreamableHTTPError) return e.code === 404 ? "the service answered 404 for the session" : null;
  if (!(e instanceof Error)) return null;
  const text = `${e.name} ${e.message} ${(e as { code?: unknown }).code ?? ""}`;
  if (
    /ECONNREFUSED|ECONNRESET|EPIPE|ConnectionRefused|ConnectionClosed|Unable to connect|fetch failed|socket/i.test(text)
  )
    return `the connection to the service failed (${e.message})`;
  return null;
}

/**
 * The stdio proxy's side toward the service: one SDK client on /api/a/mcp, replaced by a freshly initialized one when
 * the session is lost. A read-only call that failed that way is sent once more on the new session; any other call is
 * answered with a tool error saying the session was renewed (it may or may not have run: the user decides).
 */
export class ReconnectingUpstream {
  private client: Client | null = null;
  private connecting: Promise<Client> | null = null;
  private readOnly = new Map<string, boolean>();

  constructor(private readonly opts: UpstreamOptions) {}

  /** The live client, connecting (with retries) when there is none. */
  current(): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connectWithRetries().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  async listTools(params: Record<string, unknown> | undefined): Promise<ListToolsResult> {
    const result = await this.withSession("tools/list", true, (c) => c.listTools(params));
    for (const t of result.tools) this.readOnly.set(t.name, isReadOnly(t));
    return result;
  }

  async callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<CallToolResult> {
    // A client that calls without listing first: learn the tools' hints once (an unknown tool counts as writing).
    if (this.readOnly.size === 0) await this.listTools(undefined);
    const readOnly = this.readOnly.get(params.name) ?? false;
    try {
      return await this.withSession(`tools/call ${params.name}`, readOnly, (c) =>
        c.request({ method: "tools/call", params }, CallToolResultSchema),
      );
    } catch (e) {
      if (!(e instanceof SessionRenewed)) throw e;
      return {
        isError: true,
        content: [
          {
            type: "text",
            text:
              `The MCP session with the service was renewed (${e.reason}); '${params.name}' changes data, so it ` +
              "was not sent again: check whether it took effect, then call it again if needed.",
          },
        ],
      };
    }
  }

  async close(): Promise<void> {
    const c = this.client;
    this.client = null;
    await c?.close();
  }

  /** Runs `fn` on the session; on a lost session re-initializes and, when `retry`, runs it once more. */
  private async withSession<T>(what: string, retry: boolean, fn: (c: Client) => Promise<T>): Promise<T> {
    const client = await this.current();
    try {
      return await fn(client);
    } catch (e) {
      const reason = sessionLost(e);
      if (!reason) throw e;
      this.opts.log(`${what}: ${reason}; starting a new session`);
      this.drop(client);
      const fresh = await this.current();
      if (!retry) throw new SessionRenewed(reason);
      this.opts.log(`${what}: sent again on the new session (read-only)`);
      return fn(fresh);
    }
  }

  private drop(client: Client): void {
    if (this.client !== client) return;
    this.client = null;
    void client.close().catch(() => {});
  }

  private async connectWithRetries(): Promise<Client> {
    const attempts = this.opts.attempts ?? RECONNECT_ATTEMPTS;
    let delay = this.opts.firstDelayMs ?? RECONNECT_FIRST_DELAY_MS;
    for (let attempt = 1; ; attempt++) {
      const client = new Client({ name: "svc-mcp-stdio", version: "0.1.0" });
      const transport = new StreamableHTTPClientTransport(this.opts.endpoint, {
        requestInit: { headers: this.opts.headers },
      });
      try {
        await client.connect(transport);
        this.client = client;
        this.opts.log(`connected to ${this.opts.endpoint.href} (session ${transport.sessionId ?? "none"})`);
        return client;
      } catch (e) {
        void client.close().catch(() => {});
        // Only a failure a later attempt can cure is retried: a wrong password or tenant stays wrong.
        if (!sessionLost(e) || attempt >= attempts) {
          this.opts.log(`could not start a session (attempt ${attempt}/${attempts}): ${(e as Error).message}`);
          throw e;
        }
        this.opts.log(`service unreachable (attempt ${attempt}/${attempts}); retrying in ${delay} ms`);
        await Bun.sleep(delay);
        delay = Math.min(delay * 2, RECONNECT_MAX_DELAY_MS);
      }
    }
  }
}

class SessionRenewed extends Error {
  constructor(readonly reason: string) {
    super(`session renewed: ${reason}`);
  }
}

const isReadOnly = (t: Tool) => t.annotations?.readOnlyHint === true;
