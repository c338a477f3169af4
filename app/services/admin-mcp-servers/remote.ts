import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { callRemoteTool, listRemoteTools, type McpExchangeLimits, type McpRemote, withMcpClient } from "../../outbound";
import type { SecretBox } from "../secret-box";
import type { McpServerRow } from "./store";

/** How long a server's tools/list answer is reused, and how long a stale one stands in while the server is down. */
export const DISCOVERY_TTL_MS = 60_000;
export const DISCOVERY_STALE_MS = 15 * 60_000;

export interface McpRemoteSettings {
  box: SecretBox;
  limits: McpExchangeLimits;
  /** Exchanges with one server at once; more wait their turn. */
  perServer: number;
  now(): number;
}

interface Discovered {
  /** The row's updatedAt it was read for: a changed registration (URL, header) is discovered again. */
  version: string;
  at: number;
  tools: Tool[];
}

/** Bounds the exchanges with one server: `limit` at once, the others wait in order (a waiter aborted leaves). */
export class Slots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    signal?.throwIfAborted();
    if (this.running >= this.limit)
      await new Promise<void>((go, fail) => {
        const turn = () => {
          signal?.removeEventListener("abort", leave);
          go();
        };
        const leave = () => {
          const i = this.waiting.indexOf(turn);
          if (i >= 0) this.waiting.splice(i, 1);
          fail(signal?.reason ?? new Error("aborted"));
        };
        signal?.addEventListener("abort", leave, { once: true });
        this.waiting.push(turn);
      });
    else this.running++;
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * The registered MCP servers as tool sources, one per platform: discovery (tools/list) cached per server for a short
 * time, tool calls (tools/call), both through the SDK client under the outbound limits, at most `perServer` exchanges
 * with one server at once. A server that cannot be reached throws; the caller turns that into a failed tool call.
 */
export class McpRemoteTools {
  private readonly discovered = new Map<string, Discovered>();
  private readonly inFlight = new Map<string, Promise<Tool[]>>();
  private readonly slots = new Map<string, Slots>();

  constructor(readonly settings: McpRemoteSettings) {}

  /** The box that seals the auth header values (operations writing a registration seal with it). */
  get box(): SecretBox {
    return this.settings.box;
  }

  private remoteOf(row: McpServerRow): McpRemote {
    const headers: Record<string, string> = {};
    if (row.authHeaderName && row.authHeaderValueSealed)
      headers[row.authHeaderName] = this.settings.box.open(row.authHeaderValueSealed);
    return { url: row.url, headers };
  }

  private slotsOf(id: string): Slots {
    let s = this.slots.get(id);
    if (!s) this.slots.set(id, (s = new Slots(this.settings.perServer)));
    return s;
  }

  private exchange<T>(
    row: McpServerRow,
    use: Parameters<typeof withMcpClient<T>>[2],
    signal?: AbortSignal,
  ): Promise<T> {
    return this.slotsOf(row.id).run(() => withMcpClient(this.remoteOf(row), this.settings.limits, use, signal), signal);
  }

  /**
   * The server's tools: the cached list while fresh, else tools/list again (one exchange however many runs ask at
   * once). When the server cannot be reached, a list not older than DISCOVERY_STALE_MS stands in (its calls then fail
   * and are told to the model); with none, the error is thrown.
   */
  async toolsOf(row: McpServerRow): Promise<Tool[]> {
    const now = this.settings.now();
    const known = this.discovered.get(row.id);
    const current = known?.version === row.updatedAt ? known : undefined;
    if (current && now - current.at < DISCOVERY_TTL_MS) return current.tools;
    let pending = this.inFlight.get(row.id);
    if (!pending) {
      pending = this.exchange(row, (c, signal) => listRemoteTools(c, signal)).finally(() =>
        this.inFlight.delete(row.id),
      );
      this.inFlight.set(row.id, pending);
    }
    try {
      const tools = await pending;
      this.discovered.set(row.id, { version: row.updatedAt, at: this.settings.now(), tools });
      return tools;
    } catch (e) {
      if (current && now - current.at < DISCOVERY_STALE_MS) return current.tools;
      throw e;
    }
  }

  /** tools/call of `name` on the server; `signal` (the run's end) stops it, queued or under way. */
  call(row: McpServerRow, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    return this.exchange(row, (c, s) => callRemoteTool(c, s, name, args), signal);
  }

  /** Forgets a server's discovery (its registration changed or was removed); its slots stay, so the bound holds. */
  forget(id: string): void {
    this.discovered.delete(id);
  }
}
