import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Clock } from "../services/clock";
import { unbuffered } from "./event-stream";
import { createMcpServer, type McpDeps, type McpIdentity } from "./server";

/** A comment frame on every event stream this often keeps it alive through proxies that cut idle streams at 60 s. */
export const KEEP_ALIVE_MS = 15_000;
/** A session unused this long is closed when room is needed. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const MAX_SESSIONS = 1_000;

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  identity: McpIdentity;
  lastSeen: number;
}

const rpcError = (status: number, code: number, message: string) =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

/**
 * The Streamable HTTP sessions of /a/mcp: one SDK transport and one server per `mcp-session-id`, created by an
 * initialize request. A session belongs to the user and tenant that opened it: another credential does not find it.
 */
export class McpSessions {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly deps: McpDeps,
    private readonly clock: Clock,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  async handle(req: Request, identity: McpIdentity, parsedBody: unknown): Promise<Response> {
    const id = req.headers.get("mcp-session-id");
    if (id) {
      const s = this.sessions.get(id);
      if (!s || !sameCaller(s.identity, identity)) return rpcError(404, -32001, "Session not found");
      s.identity = identity;
      s.lastSeen = this.clock.now();
      return unbuffered(req, await s.transport.handleRequest(req, { parsedBody }));
    }
    if (req.method !== "POST" || !isInitializeRequest(parsedBody))
      return rpcError(400, -32000, "Bad Request: no valid mcp-session-id; start with an initialize request");
    this.makeRoom();
    const session: Session = { transport: this.transport(), identity, lastSeen: this.clock.now() };
    const server = createMcpServer(this.deps, () => session.identity);
    await server.connect(session.transport);
    const res = await session.transport.handleRequest(req, { parsedBody });
    if (session.transport.sessionId) this.sessions.set(session.transport.sessionId, session);
    return unbuffered(req, res);
  }

  /** Closes every session (shutdown, tests). */
  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.transport.close()));
  }

  private transport() {
    const t = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      keepAliveMs: KEEP_ALIVE_MS,
      onsessionclosed: (sid) => void this.sessions.delete(sid),
    });
    return t;
  }

  /** Drops idle sessions, then the least recently used one while the table is full. */
  private makeRoom(): void {
    const now = this.clock.now();
    for (const [sid, s] of this.sessions) {
      if (now - s.lastSeen > SESSION_IDLE_MS) {
        this.sessions.delete(sid);
        void s.transport.close();
      }
    }
    while (this.sessions.size >= MAX_SESSIONS) {
      const [sid, s] = [...this.sessions].reduce((a, b) => (b[1].lastSeen < a[1].lastSeen ? b : a));
      this.sessions.delete(sid);
      void s.transport.close();
    }
  }
}

const sameCaller = (a: McpIdentity, b: McpIdentity) =>
  a.actor.userId === b.actor.userId && (a.tenant?.id ?? null) === (b.tenant?.id ?? null);
