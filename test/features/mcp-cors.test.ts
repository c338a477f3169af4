import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { basic, type Listening, rawInitialize, startListening } from "../harness/mcp";
import { describeInBrowser, launchChromium } from "../harness/browser";

// Browser MCP clients on /api/a/mcp: CORS for localhost and MCP_ALLOWED_ORIGINS, 403 for any other origin; checked
// with raw requests and with Chromium running a page of another origin.

let L: Listening;
let page: ReturnType<typeof Bun.serve>;
let allowed = "";
let auth: Record<string, string>;

const preflight = (origin: string, requestHeaders = "authorization, content-type, mcp-session-id, x-tenant-id") =>
  fetch(L.url, {
    method: "OPTIONS",
    headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": requestHeaders },
  });

/** A page whose script speaks MCP to the service by fetch: initialize, initialized, tools/list. */
const CLIENT_PAGE = (mcpUrl: string, authorization: string) => `<!doctype html><html><body><script>
window.mcp = async () => {
  const h = { authorization: ${JSON.stringify(authorization)}, "x-tenant-id": "acme", "content-type": "application/json",
    accept: "application/json, text/event-stream" };
  const post = (body, extra = {}) => fetch(${JSON.stringify(mcpUrl)}, { method: "POST", headers: { ...h, ...extra }, body: JSON.stringify(body) });
  const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "browser", version: "1" } } });
  const sid = init.headers.get("mcp-session-id");
  if (!sid) return { error: "session id not readable", status: init.status };
  await init.text();
  const s = { "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" };
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, s);
  const list = await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }, s);
  const text = await list.text();
  const data = text.split("\\n").find((l) => l.startsWith("data: "));
  return { status: list.status, tools: JSON.parse(data ? data.slice(6) : text).result.tools.length };
};
</script></body></html>`;

beforeAll(async () => {
  let html = "";
  page = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(html, { headers: { "content-type": "text/html" } }),
  });
  allowed = `http://app.example.test:${page.port}`;
  L = await startListening({ MCP_ALLOWED_ORIGINS: allowed });
  const sa = await saToken(L.s);
  const acme = await createTenant(L.s, "acme", sa);
  const admin = await userInTenant(L.s, acme, "ADMIN", sa);
  auth = { authorization: basic(admin.email, admin.password), "x-tenant-id": "acme" };
  html = CLIENT_PAGE(L.url.href, auth.authorization as string);
});
afterAll(async () => {
  page?.stop(true);
  await L?.close();
});

describe("CORS on /api/a/mcp", () => {
  test("a preflight from an allowed origin is answered 204 without credentials, naming the MCP headers", async () => {
    for (const origin of [allowed, "http://localhost:6274", "http://127.0.0.1:5173"]) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expect(res.headers.get("access-control-allow-origin")).toBe(origin);
      expect(res.headers.get("vary")).toContain("Origin");
      const allowHeaders = res.headers.get("access-control-allow-headers") ?? "";
      for (const h of ["authorization", "mcp-session-id", "mcp-protocol-version", "x-tenant-id", "content-type"])
        expect(allowHeaders).toContain(h);
      expect(res.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE, OPTIONS");
      // The credential is a header the script sets: no cookies, so no Allow-Credentials.
      expect(res.headers.get("access-control-allow-credentials")).toBeNull();
    }
  });

  test("a preflight or request from any other origin is refused with 403 and no CORS header", async () => {
    for (const origin of ["http://evil.example", "https://app.example.test", `${allowed}.evil`, "null"]) {
      const pre = await preflight(origin);
      expect(pre.status).toBe(403);
      expect(pre.headers.get("access-control-allow-origin")).toBeNull();
      const post = await rawInitialize(L.url, { ...auth, origin });
      expect(post.status).toBe(403);
      expect(((await post.json()) as { message: string }).message).toContain(`Origin ${origin} is not allowed`);
    }
  });

  test("answers to an allowed origin carry Allow-Origin and expose mcp-session-id, refusals included", async () => {
    const ok = await rawInitialize(L.url, { ...auth, origin: allowed });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe(allowed);
    expect(ok.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
    expect(ok.headers.get("mcp-session-id")).toBeTruthy();
    await ok.text();
    // A wrong password is still a 401 with its challenge, readable by the page.
    const denied = await rawInitialize(L.url, {
      ...auth,
      authorization: basic("nobody@x.test", "wrong"),
      origin: allowed,
    });
    expect(denied.status).toBe(401);
    expect(denied.headers.get("access-control-allow-origin")).toBe(allowed);
    expect(denied.headers.get("access-control-expose-headers")).toContain("www-authenticate");
    // A request without Origin (desktop clients) gets no CORS header: it is not a browser's.
    const plain = await rawInitialize(L.url, auth);
    expect(plain.status).toBe(200);
    expect(plain.headers.get("access-control-allow-origin")).toBeNull();
    await plain.text();
  });

  test("OPTIONS without an Origin (not a preflight) names the methods and needs no credential", async () => {
    const res = await fetch(L.url, { method: "OPTIONS" });
    expect(res.status).toBe(204);
    expect(res.headers.get("allow")).toBe("GET, POST, DELETE, OPTIONS");
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describeInBrowser("a browser page of another origin", () => {
  let browser: Browser;
  beforeAll(async () => {
    // Both page origins are names of this machine inside Chromium only; nothing is looked up outside.
    browser = await launchChromium(["--host-resolver-rules=MAP *.example.test 127.0.0.1"]);
  });
  afterAll(async () => {
    await browser?.close();
  });

  const run = async (origin: string) => {
    const context = await browser.newContext();
    try {
      const p = await context.newPage();
      await p.goto(`${origin}/`);
      return await p.evaluate("window.mcp().catch((e) => ({ error: String(e) }))");
    } finally {
      await context.close();
    }
  };

  test("an allowed origin initializes, reads the session id and lists the tools", async () => {
    expect(await run(allowed)).toEqual({ status: 200, tools: 38 });
  }, 30_000);

  test("another origin is blocked by the browser (the service answered 403)", async () => {
    const evil = allowed.replace("app.", "evil.");
    expect(await run(evil)).toEqual({ error: "TypeError: Failed to fetch" });
  }, 30_000);
});
