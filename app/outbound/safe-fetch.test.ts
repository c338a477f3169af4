import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DestinationRefused } from "./address-policy";
import { safeFetch } from "./safe-fetch";

let server: ReturnType<typeof Bun.serve>;
const seen: { path: string; host: string | null; auth: string | null }[] = [];
// The test resolver answers the loopback address for service.test; the allow-list names it.
const local = { allowedPrivate: ["service.test", "other.test"], resolver: async () => ["127.0.0.1"] };

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const url = new URL(req.url);
      seen.push({ path: url.pathname, host: req.headers.get("host"), auth: req.headers.get("authorization") });
      const p = server.port;
      if (url.pathname === "/to-metadata") return Response.redirect("http://169.254.169.254/latest/meta-data/", 302);
      if (url.pathname === "/to-ok") return Response.redirect("/ok", 307);
      if (url.pathname === "/to-other") return Response.redirect(`http://other.test:${p}/ok`, 302);
      if (url.pathname === "/loop") return Response.redirect("/loop", 302);
      return Response.json({ ok: true });
    },
  });
});
afterAll(() => server.stop(true));

describe("safeFetch", () => {
  test("connects to the checked address and sends the original Host header", async () => {
    const res = await safeFetch(`http://service.test:${server.port}/ok`, {}, local);
    expect(await res.json()).toEqual({ ok: true });
    expect(seen.at(-1)).toMatchObject({ path: "/ok", host: `service.test:${server.port}` });
  });

  test("resolves once and hands the pinned address to the transport", async () => {
    const calls: string[] = [];
    let lookups = 0;
    const res = await safeFetch(
      "http://public.example/a?b=1",
      { headers: { "x-k": "v" } },
      {
        resolver: async () => {
          lookups++;
          return ["93.184.215.14"];
        },
        fetchImpl: (async (u: URL, init: RequestInit) => {
          calls.push(`${u} ${new Headers(init.headers).get("host")} ${new Headers(init.headers).get("x-k")}`);
          return new Response("fine");
        }) as unknown as typeof fetch,
      },
    );
    expect(await res.text()).toBe("fine");
    expect(calls).toEqual(["http://93.184.215.14/a?b=1 public.example v"]);
    expect(lookups).toBe(1);
  });

  test("a host resolving to a private address is refused before anything is sent", async () => {
    const before = seen.length;
    await expect(
      safeFetch(`http://service.test:${server.port}/ok`, {}, { resolver: async () => ["127.0.0.1"] }),
    ).rejects.toThrow(DestinationRefused);
    await expect(safeFetch(`http://127.0.0.1:${server.port}/ok`)).rejects.toThrow(/loopback/);
    expect(seen.length).toBe(before);
  });

  test("refuses protocols other than http and https", async () => {
    await expect(safeFetch("file:///etc/passwd")).rejects.toThrow(/refuses protocol file:/);
    await expect(safeFetch("ftp://example.com/")).rejects.toThrow(/refuses protocol/);
  });

  test("follows redirects by hand and checks every hop: a redirect to a blocked address is refused", async () => {
    await expect(safeFetch(`http://service.test:${server.port}/to-metadata`, {}, local)).rejects.toThrow(/metadata/);
    const res = await safeFetch(`http://service.test:${server.port}/to-ok`, {}, local);
    expect(res.status).toBe(200);
    expect(seen.at(-1)).toMatchObject({ path: "/ok", host: `service.test:${server.port}` });
  });

  test("a redirect to another origin drops the credentials of the first", async () => {
    await safeFetch(`http://service.test:${server.port}/to-other`, { headers: { authorization: "Bearer s" } }, local);
    expect(seen.at(-2)).toMatchObject({ path: "/to-other", auth: "Bearer s" });
    expect(seen.at(-1)).toMatchObject({ path: "/ok", host: `other.test:${server.port}`, auth: null });
  });

  test("bounds the number of hops, and returns the redirect itself when none may be followed", async () => {
    await expect(
      safeFetch(`http://service.test:${server.port}/loop`, {}, { ...local, maxRedirects: 3 }),
    ).rejects.toThrow(/more than 3 redirects/);
    const res = await safeFetch(`http://service.test:${server.port}/to-metadata`, {}, { ...local, maxRedirects: 0 });
    expect(res.status).toBe(302);
  });

  test("times out", async () => {
    const hang = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Promise(() => {}) });
    try {
      await expect(
        safeFetch(`http://127.0.0.1:${hang.port}/`, {}, { allowedPrivate: ["127.0.0.1"], timeoutMs: 100 }),
      ).rejects.toThrow();
    } finally {
      hang.stop(true);
    }
  });
});

describe("safeFetch over https", () => {
  const dir = mkdtempSync(join(tmpdir(), "outbound-tls-"));
  let tls: ReturnType<typeof Bun.serve> | undefined;
  let cert = "";
  beforeAll(() => {
    const r = spawnSync("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=service.test",
      "-addext",
      "subjectAltName=DNS:service.test",
      "-keyout",
      join(dir, "key.pem"),
      "-out",
      join(dir, "cert.pem"),
    ]);
    if (r.status !== 0) return;
    cert = readFileSync(join(dir, "cert.pem"), "utf8");
    tls = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      tls: { cert, key: readFileSync(join(dir, "key.pem"), "utf8") },
      fetch: (req) => Response.json({ host: req.headers.get("host") }),
    });
  });
  afterAll(() => {
    tls?.stop(true);
    rmSync(dir, { recursive: true, force: true });
  });

  test("connects to the pinned address and verifies the certificate against the original name", async () => {
    if (!tls) throw new Error("openssl could not make a test certificate");
    const init = { tls: { ca: cert } } as RequestInit;
    const res = await safeFetch(`https://service.test:${tls.port}/`, init, local);
    expect(await res.json()).toEqual({ host: `service.test:${tls.port}` });
    // The same address under a name the certificate does not carry fails verification.
    await expect(safeFetch(`https://other.test:${tls.port}/`, init, local)).rejects.toThrow();
  });
});
