import type { Context, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppEnv } from "../env";
import { errorBody } from "../errors/error-body";
import { BadRequestError } from "../../services/errors";

const MiB = 1024 * 1024;

/** The default limit of a request body (JSON or any other); the routes below need more. */
export const DEFAULT_BODY_LIMIT = 1 * MiB;
/** How deep a JSON body may nest objects and arrays. */
export const MAX_JSON_DEPTH = 32;

/** Routes whose bodies need more than the default, each with the reason. */
const LARGER: { method: string; path: RegExp; maxBytes: number }[] = [
  // 20,000 records per request (spec limit).
  { method: "POST", path: /^\/api\/a\/cms\/collections\/[^/]+\/records\/bulk$/, maxBytes: 32 * MiB },
  // Model files (BPMN, CMMN, DMN) with their diagrams.
  { method: "POST", path: /^\/api\/a\/definitions\/deploy$/, maxBytes: 16 * MiB },
  { method: "POST", path: /^\/api\/a\/decisions$/, maxBytes: 16 * MiB },
  { method: "PUT", path: /^\/api\/a\/decisions\/[^/]+$/, maxBytes: 16 * MiB },
  // MCP tool calls: svc_kb_add_text takes 2 million characters (JSON-escaped), svc_cms_records_load 5,000 records.
  { method: "POST", path: /^\/api\/a\/mcp$/, maxBytes: 32 * MiB },
  // BPMN models sent as JSON text for checking, review, the copilot and documentation proposals.
  { method: "POST", path: /^\/api\/a\/definitions\/validate$/, maxBytes: 16 * MiB },
  { method: "POST", path: /^\/api\/a\/ai-validation\/bpmn$/, maxBytes: 16 * MiB },
  { method: "POST", path: /^\/api\/a\/modeler\/copilot\/stream$/, maxBytes: 16 * MiB },
  { method: "POST", path: /^\/api\/a\/definitions\/[^/]+\/documentation\/propose$/, maxBytes: 16 * MiB },
];

/** Uploads streamed to the file store, which counts the bytes against MAX_UPLOAD_BYTES itself: never buffered here. */
const STREAMED: { method: string; path: RegExp }[] = [
  { method: "POST", path: /^\/api\/a\/attachments$/ },
  { method: "POST", path: /^\/api\/a\/attachments\/[^/]+\/replace$/ },
];

/** The body limit of a route: the default unless the route is listed above; null for streamed uploads. */
export function bodyLimitOf(method: string, path: string): number | null {
  if (STREAMED.some((r) => r.method === method && r.path.test(path))) return null;
  return LARGER.find((r) => r.method === method && r.path.test(path))?.maxBytes ?? DEFAULT_BODY_LIMIT;
}

const limiters = new Map<number, ReturnType<typeof bodyLimit>>();
function limiterOf(maxBytes: number) {
  let l = limiters.get(maxBytes);
  if (!l) {
    l = bodyLimit({
      maxSize: maxBytes,
      onError: (c) =>
        c.json(
          errorBody(413, `The request body exceeds the limit of ${maxBytes} bytes for this route`, c.req.path),
          413,
        ),
    });
    limiters.set(maxBytes, l);
  }
  return l;
}

/** Depth of a parsed JSON value, walked without recursion; stops as soon as `max` is passed. */
function deeperThan(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== "object") continue;
    if (d + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}

/**
 * Bounds what one request body can make the event loop do: its size (413 in the spec's error shape, before it is
 * read when Content-Length says so, while reading otherwise) and, for JSON, its nesting depth (400).
 */
export async function requestBodyLimits(c: Context<AppEnv>, next: Next) {
  const max = bodyLimitOf(c.req.method, c.req.path);
  if (max === null || !c.req.raw.body) return next();
  return limiterOf(max)(c, async () => {
    if ((c.req.header("content-type") ?? "").includes("json")) {
      let parsed: unknown;
      try {
        parsed = await c.req.json();
      } catch {
        parsed = undefined; // malformed JSON: the route's validation answers 400
      }
      if (deeperThan(parsed, MAX_JSON_DEPTH))
        throw new BadRequestError(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
    }
    await next();
  });
}
