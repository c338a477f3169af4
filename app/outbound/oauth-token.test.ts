import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OAuthTokenError, requestAccessToken } from "./oauth-token";

let server: ReturnType<typeof Bun.serve>;
let base: string;
const hits: string[] = [];

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = new URL(req.url).pathname;
      hits.push(path);
      if (path === "/big") return new Response(JSON.stringify({ access_token: "a", pad: "x".repeat(70_000) }));
      if (path === "/redirect") return new Response(null, { status: 307, headers: { location: "/ok" } });
      if (path === "/html") return new Response("<h1>down</h1>", { status: 503 });
      return Response.json({ access_token: "tok", expires_in: 120 });
    },
  });
  base = `http://127.0.0.1:${server.port}`;
});
afterAll(() => server.stop(true));

const ask = (path: string) =>
  requestAccessToken({
    tokenUrl: `${base}${path}`,
    grant: "CLIENT_CREDENTIALS",
    clientId: "c",
    clientSecret: "s",
    allowedPrivate: ["127.0.0.1"],
  });

describe("OAuth2 token requests", () => {
  test("a good answer gives the token and its lifetime", async () => {
    expect(await ask("/ok")).toEqual({ accessToken: "tok", expiresIn: 120 });
  });

  test("an oversized answer (over 64 KB) is refused, not read whole", async () => {
    const e = await ask("/big").catch((x) => x);
    expect(e).toBeInstanceOf(OAuthTokenError);
    expect(e.message).toMatch(/more than 65536 bytes/);
  });

  test("a redirect is not followed: the POST with the secret goes nowhere else", async () => {
    hits.length = 0;
    const e = await ask("/redirect").catch((x) => x);
    expect(e.message).toMatch(/HTTP 307/);
    expect(hits).toEqual(["/redirect"]);
  });

  test("a non-JSON failure is reported with its status and is not read as revoked consent", async () => {
    const e = await ask("/html").catch((x) => x);
    expect(e.message).toMatch(/HTTP 503/);
    expect(e.revoked).toBe(false);
  });

  test("an internal token host without allowance is refused before any request", async () => {
    hits.length = 0;
    const e = await requestAccessToken({
      tokenUrl: `${base}/ok`,
      grant: "CLIENT_CREDENTIALS",
      clientId: "c",
      clientSecret: "s",
      allowedPrivate: [],
    }).catch((x) => x);
    expect(e.message).toMatch(/non-public/);
    expect(hits).toEqual([]);
  });
});
