import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { checkDestination, classifyAddress } from "../../app/outbound";

let s: TestServer;
let admin: string, user: string;
let remote: ReturnType<typeof Bun.serve>;
let origin: string;
const seen: { path: string; host: string | null; auth: string | null; body: string }[] = [];
const base = "/api/a/forms/datasources";

beforeAll(async () => {
  remote = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      seen.push({
        path: url.pathname + url.search,
        host: req.headers.get("host"),
        auth: req.headers.get("authorization"),
        body: await req.text(),
      });
      if (url.pathname === "/items")
        return Response.json({ data: { items: [{ id: 1, q: url.searchParams.get("q") }, { id: 2 }] } });
      if (url.pathname === "/echo") return Response.json({ ok: true });
      if (url.pathname === "/big")
        return new Response(JSON.stringify({ pad: "x".repeat(5000) }), {
          headers: { "content-type": "application/json" },
        });
      if (url.pathname === "/slow") return new Promise((r) => setTimeout(() => r(Response.json([])), 2000));
      if (url.pathname === "/redirect")
        return new Response(null, { status: 302, headers: { location: "http://169.254.169.254/" } });
      if (url.pathname === "/fail") return new Response("no", { status: 500 });
      if (url.pathname === "/text") return new Response("not json");
      return new Response("?", { status: 404 });
    },
  });
  origin = `http://127.0.0.1:${remote.port}`;
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "ds-http", sa);
  admin = (await userInTenant(s, t, "ADMIN", sa)).token;
  user = (await userInTenant(s, t, "USER", sa)).token;
  await s.req("POST", "/api/a/variables", {
    token: admin,
    json: { name: "REMOTE_TOKEN", value: "very-secret-123", secret: true },
  });
});
afterAll(async () => {
  remote.stop(true);
  await s.close();
});

const define = (key: string, config: Record<string, unknown>) =>
  s.req("POST", base, { token: admin, json: { key, name: key, kind: "HTTP", config } });
const exec = (key: string, parameters: Record<string, unknown> = {}) =>
  s.req("POST", `${base}/${key}/execute`, { token: user, json: { parameters } });
const allowLocal = (value: string) =>
  s.req("PUT", "/api/a/variables/DATASOURCE_ALLOWED_PRIVATE_HOSTS", { token: admin, json: { value } });

describe("SSRF guard", () => {
  test("classifies internal addresses", () => {
    expect(classifyAddress("127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::1")).toBe("loopback");
    expect(classifyAddress("10.1.2.3")).toBe("private");
    expect(classifyAddress("172.20.0.1")).toBe("private");
    expect(classifyAddress("192.168.1.1")).toBe("private");
    expect(classifyAddress("fd12::1")).toBe("private");
    expect(classifyAddress("169.254.10.1")).toBe("link-local");
    expect(classifyAddress("fe80::1")).toBe("link-local");
    expect(classifyAddress("169.254.169.254")).toBe("metadata");
    expect(classifyAddress("::ffff:127.0.0.1")).toBe("loopback");
    expect(classifyAddress("::ffff:7f00:1")).toBe("loopback");
    expect(classifyAddress("0.0.0.0")).toBe("unspecified");
    expect(classifyAddress("8.8.8.8")).toBeNull();
    expect(classifyAddress("2606:4700::1111")).toBeNull();
  });

  test("checks every address a name resolves to, after resolution", async () => {
    const resolver = async () => ["93.184.215.14", "10.0.0.5"];
    await expect(checkDestination("rebind.example", [], resolver)).rejects.toThrow(/private address/);
    expect(await checkDestination("ok.example", [], async () => ["93.184.215.14"])).toEqual(["93.184.215.14"]);
    expect(await checkDestination("rebind.example", ["rebind.example"], resolver)).toHaveLength(2);
    await expect(checkDestination("meta.example", ["*"], async () => ["169.254.169.254"])).rejects.toThrow(/metadata/);
    await expect(checkDestination("localhost", [])).rejects.toThrow(/loopback/);
  });

  test("an HTTP source on 127.0.0.1 is refused with 403 and nothing is sent", async () => {
    await define("local", { url: `${origin}/echo` });
    const before = seen.length;
    await expectError(await exec("local"), 403, /loopback/);
    expect(seen.length).toBe(before);
  });

  test("the tenant allow-list variable lets an internal host through, but never a metadata address", async () => {
    await allowLocal("127.0.0.1");
    expect(await (await exec("local")).json()).toEqual({ rows: [{ ok: true }] });
    await define("meta", { url: "http://169.254.169.254/latest/meta-data/" });
    await allowLocal("*");
    await expectError(await exec("meta"), 403, /metadata/);
  });
});

describe("HTTP JSON calls", () => {
  beforeAll(async () => {
    await allowLocal("127.0.0.1");
  });

  test("fills placeholders (secrets included), picks rows by path and pins plain http to the checked address", async () => {
    await define("items", {
      url: `${origin}/items?q={{param:q}}`,
      headers: { authorization: "Bearer {{var:REMOTE_TOKEN}}" },
      rowsPath: "data.items",
    });
    const res = await exec("items", { q: "a b&c" });
    expect(await res.json()).toEqual({ rows: [{ id: 1, q: "a b&c" }, { id: 2 }] });
    const call = seen.at(-1)!;
    expect(call.auth).toBe("Bearer very-secret-123");
    expect(call.host).toBe(`127.0.0.1:${remote.port}`);
    const detail = await (await s.req("GET", `${base}/items`, { token: user })).text();
    expect(detail).not.toContain("very-secret-123");
  });

  test("a host name is resolved, checked and called at the checked address with its own Host header", async () => {
    await allowLocal("localhost,127.0.0.1,::1");
    await define("by-name", { url: `http://localhost:${remote.port}/echo` });
    expect(await (await exec("by-name")).json()).toEqual({ rows: [{ ok: true }] });
    expect(seen.at(-1)!.host).toBe(`localhost:${remote.port}`);
    await allowLocal("intranet.example");
    await expectError(await exec("by-name"), 403, /'localhost' resolves to a loopback address/);
    await allowLocal("127.0.0.1");
  });

  test("POST sends the body template, or the parameters when there is none", async () => {
    await define("post-template", {
      url: `${origin}/echo`,
      method: "POST",
      body: { id: "{{param:id}}", label: "n-{{param:id}}" },
    });
    await exec("post-template", { id: 7 });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ id: 7, label: "n-7" });
    await define("post-plain", { url: `${origin}/echo`, method: "POST" });
    await exec("post-plain", { a: 1 });
    expect(JSON.parse(seen.at(-1)!.body)).toEqual({ a: 1 });
  });

  test("an answer above the size cap is refused", async () => {
    await define("big", { url: `${origin}/big`, maxBytes: 1000 });
    await expectError(await exec("big"), 422, /larger than 1000 bytes/);
  });

  test("a slow answer times out", async () => {
    await define("slow", { url: `${origin}/slow`, timeoutMs: 200 });
    await expectError(await exec("slow"), 422, /within 200 ms/);
  });

  test("redirects are not followed; error statuses, non-JSON and a missing path are reported", async () => {
    await define("redirect", { url: `${origin}/redirect` });
    await expectError(await exec("redirect"), 422, /redirect/);
    await define("fail", { url: `${origin}/fail` });
    await expectError(await exec("fail"), 422, /HTTP 500/);
    await define("text", { url: `${origin}/text` });
    await expectError(await exec("text"), 422, /not JSON/);
    await define("nopath", { url: `${origin}/echo`, rowsPath: "data.items" });
    await expectError(await exec("nopath"), 422, /nothing at 'data.items'/);
  });

  test("errors name the URL template, never the secret it was filled with", async () => {
    await define("leaky", { url: `${origin}/fail?token={{var:REMOTE_TOKEN}}` });
    const body = await expectError(await exec("leaky"), 422);
    expect(JSON.stringify(body)).not.toContain("very-secret-123");
    expect(body.message).toContain("{{var:REMOTE_TOKEN}}");
  });

  test("an undefined variable is reported by name", async () => {
    await define("undefvar", { url: `${origin}/echo`, headers: { "x-key": "{{var:MISSING}}" } });
    await expectError(await exec("undefvar"), 422, /'MISSING'/);
  });
});
