import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { AnswerTooLarge } from "./read-capped";
import { type OutboundPolicy, safeFetch } from "./safe-fetch";

/** A remote MCP server as the client reaches it: its Streamable HTTP endpoint and the headers it is sent. */
export interface McpRemote {
  url: string;
  headers: Record<string, string>;
}

/** What one exchange with a server may take: the SSRF policy, time for the whole exchange, bytes of one answer. */
export interface McpExchangeLimits {
  policy: OutboundPolicy;
  timeoutMs: number;
  maxAnswerBytes: number;
}

/** The exchange did not finish within its time. */
export class McpTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`the MCP server did not answer within ${timeoutMs} ms`);
  }
}

/**
 * A body that fails once more than `max` bytes passed (a declared Content-Length over it is refused before reading),
 * so an answer is never buffered past the bound; `onOver` stops the exchange at once instead of at its timeout.
 */
function capped(res: Response, max: number, onOver: () => void): Response {
  const declared = Number(res.headers.get("content-length") ?? "NaN");
  if (declared > max) {
    onOver();
    void res.body?.cancel();
    throw new AnswerTooLarge(max);
  }
  if (!res.body) return res;
  let seen = 0;
  const body = res.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, out) {
        seen += chunk.byteLength;
        if (seen > max) {
          onOver();
          out.error(new AnswerTooLarge(max));
        } else out.enqueue(chunk);
      },
    }),
  );
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}

/**
 * One exchange with a remote server through the official SDK client over Streamable HTTP: connect (initialize), run
 * `use`, close. Every HTTP request goes through safeFetch (the address policy, pinned connection, no redirects),
 * each answer is capped, and the whole exchange is bounded in time. Throws McpTimeout, AnswerTooLarge,
 * DestinationRefused or the SDK's error (the server's HTTP status, a JSON-RPC error).
 */
export async function withMcpClient<T>(
  remote: McpRemote,
  limits: McpExchangeLimits,
  use: (client: Client, signal: AbortSignal) => Promise<T>,
  /** The caller's own end (a run aborted, a turn timed out): the exchange stops with it. */
  outer?: AbortSignal,
): Promise<T> {
  outer?.throwIfAborted();
  const stop = new AbortController();
  const onOuter = () => stop.abort();
  outer?.addEventListener("abort", onOuter, { once: true });
  let over = false;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop.abort();
  }, limits.timeoutMs);
  const fetchCapped = async (url: string | URL, init?: RequestInit) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, stop.signal]) : stop.signal;
    const res = await safeFetch(
      url,
      { ...init, signal },
      { ...limits.policy, maxRedirects: 0, timeoutMs: limits.timeoutMs },
    );
    return capped(res, limits.maxAnswerBytes, () => {
      over = true;
      stop.abort();
    });
  };
  const transport = new StreamableHTTPClientTransport(new URL(remote.url), {
    requestInit: { headers: remote.headers },
    fetch: fetchCapped,
    // A dropped stream is the call's failure; the exchange is short-lived and never resumed.
    reconnectionOptions: {
      maxRetries: 0,
      initialReconnectionDelay: 1000,
      maxReconnectionDelay: 1000,
      reconnectionDelayGrowFactor: 1,
    },
  });
  const client = new Client({ name: "pms-agent", version: "1.0.0" });
  try {
    await client.connect(transport, { signal: stop.signal, timeout: limits.timeoutMs });
    return await use(client, stop.signal);
  } catch (e) {
    if (over) throw new AnswerTooLarge(limits.maxAnswerBytes);
    if (timedOut) throw new McpTimeout(limits.timeoutMs);
    throw e;
  } finally {
    outer?.removeEventListener("abort", onOuter);
    clearTimeout(timer);
    await client.close().catch(() => {});
  }
}

/** tools/list, every page (a server's catalogue is small; `maxPages` bounds a server that never ends it). */
export async function listRemoteTools(client: Client, signal: AbortSignal, maxPages = 10): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const r = await client.listTools(cursor ? { cursor } : {}, { signal });
    tools.push(...r.tools);
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return tools;
}

/** tools/call of one tool; the answer as the server gave it (isError included). */
export async function callRemoteTool(
  client: Client,
  signal: AbortSignal,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args }, undefined, { signal })) as CallToolResult;
}
