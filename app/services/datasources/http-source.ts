import { ForbiddenError, UnprocessableError } from "../errors";
import type { HttpConfigT } from "./kinds";
import { fillJson, fillText, type Lookup } from "./placeholders";
import { AnswerTooLarge, DestinationRefused, type Resolver, readCapped, safeFetch } from "../../outbound";

export interface HttpRunOptions {
  /** Host names or addresses allowed although internal ("*" = all); from the tenant's allow-list variable. */
  allowedPrivate: string[];
  resolver?: Resolver;
}

/** Follows a dot path (`data.items`, `results.0`) into the parsed answer. */
function pick(value: unknown, path: string | undefined): unknown {
  if (!path) return value;
  let cur = value;
  for (const part of path.split(".")) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

const toRows = (v: unknown): Record<string, unknown>[] =>
  (Array.isArray(v) ? v : [v]).map((r) =>
    r !== null && typeof r === "object" && !Array.isArray(r) ? (r as Record<string, unknown>) : { value: r },
  );

/**
 * Calls an HTTP JSON source through safeFetch (checked after DNS resolution, pinned to the checked address);
 * redirects are not followed; time and size are bounded. Messages name the configured URL template,
 * never resolved values, so secrets from tenant variables are not echoed back.
 */
export async function runHttp(
  key: string,
  config: HttpConfigT,
  parameters: Record<string, unknown>,
  lookup: Lookup,
  opts: HttpRunOptions,
) {
  const fail = (m: string): never => {
    throw new UnprocessableError(`HTTP data source '${key}' (${config.url}): ${m}`);
  };
  let url: URL;
  try {
    url = new URL(fillText(config.url, lookup, encodeURIComponent));
  } catch {
    return fail("the URL is not valid once its placeholders are filled");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") fail("only http and https are allowed");
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const literalHost = config.url.toLowerCase().includes(host.toLowerCase());

  const headers = new Headers({ accept: "application/json" });
  for (const [name, template] of Object.entries(config.headers)) {
    const value = fillText(template, lookup);
    if (/[\r\n]/.test(value)) fail(`header '${name}' would contain a line break`);
    headers.set(name, value);
  }
  let body: string | undefined;
  if (config.method === "POST") {
    body = JSON.stringify(config.body === undefined ? parameters : fillJson(config.body, lookup));
    if (!headers.has("content-type")) headers.set("content-type", "application/json");
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), config.timeoutMs);
  try {
    let res: Response;
    try {
      // The one outbound policy: checked after DNS, pinned to the checked address; data sources follow no redirect.
      res = await safeFetch(
        url,
        { method: config.method, headers, body, signal: controller.signal },
        { allowedPrivate: opts.allowedPrivate, resolver: opts.resolver, maxRedirects: 0, timeoutMs: config.timeoutMs },
      );
    } catch (e) {
      if (e instanceof DestinationRefused)
        throw new ForbiddenError(
          `HTTP data source '${key}' refused: ${literalHost ? e.message : "its host (from a variable) is not allowed"}`,
        );
      return fail(controller.signal.aborted ? `no answer within ${config.timeoutMs} ms` : "the connection failed");
    }
    if (res.status >= 300 && res.status < 400) fail(`answered a redirect (HTTP ${res.status}), which is not followed`);
    if (!res.ok) fail(`answered HTTP ${res.status}`);
    let text: string;
    try {
      text = await readCapped(res, config.maxBytes);
    } catch (e) {
      if (e instanceof AnswerTooLarge) return fail(e.message);
      return fail(
        controller.signal.aborted ? `no answer within ${config.timeoutMs} ms` : "the answer could not be read",
      );
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return fail("the answer is not JSON");
    }
    const rows = pick(parsed, config.rowsPath);
    if (rows === undefined) fail(`the answer has nothing at '${config.rowsPath}'`);
    return toRows(rows);
  } finally {
    clearTimeout(timer);
  }
}
