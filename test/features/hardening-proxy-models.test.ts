import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { parseTrustProxy } from "../../app/http/middleware/client-ip";

// Issue 17, defects 5 (DOCTYPE in models) and 8 (TRUST_PROXY).
const fixture = (dir: string, name: string) => readFileSync(join(import.meta.dir, "../fixtures", dir, name), "utf8");
const ENTITY = '<!DOCTYPE definitions [ <!ENTITY xxe "expanded"> ]>\n';

/** Puts a DOCTYPE with an entity declaration after the XML declaration and uses `&xxe;` in the first name. */
function withDoctype(xml: string): string {
  const withDecl = xml.replace(/^(<\?xml[^>]*\?>\s*)/, `$1${ENTITY}`);
  return withDecl.replace(/ name="[^"]*"/, ' name="&xxe;"');
}

describe("models with a DOCTYPE (defect 5)", () => {
  let s: TestServer;
  let modeler: { token: string };
  beforeAll(async () => {
    s = await startTestServer();
    const t = await createTenant(s, "models");
    modeler = await userInTenant(s, t, "MODELER");
  });
  afterAll(() => s.close());

  const upload = (path: string, xml: string, name: string) => {
    const fd = new FormData();
    fd.append("file", new File([xml], name, { type: "application/xml" }));
    return s.req("POST", path, { token: modeler.token, body: fd });
  };

  const cases = [
    ["BPMN", "/api/a/definitions/deploy", fixture("bpmn", "approval.bpmn"), "m.bpmn"],
    ["CMMN", "/api/a/definitions/deploy", fixture("cmmn", "review-case.cmmn"), "m.cmmn"],
    ["DMN", "/api/a/decisions", fixture("dmn", "discount.dmn"), "m.dmn"],
  ] as const;

  for (const [kind, path, xml, name] of cases) {
    test(`${kind}: the file deploys as is, and answers 400 with a DOCTYPE`, async () => {
      const refused = await upload(path, withDoctype(xml), name);
      await expectError(refused, 400, /DOCTYPE/);
      expect([200, 201]).toContain((await upload(path, xml, name)).status);
    });
  }

  test("nothing named after the entity was stored", async () => {
    const list = await (await s.req("GET", "/api/a/decisions", { token: modeler.token })).text();
    expect(list).not.toContain("&xxe;");
    const defs = await (await s.req("GET", "/api/a/definitions", { token: modeler.token })).text();
    expect(defs).not.toContain("xxe");
  });
});

describe("TRUST_PROXY (defect 8)", () => {
  test("the setting: a hop count, true = one hop, a list of addresses/CIDRs; a typo stops the start", () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy("false")).toBe(false);
    expect(parseTrustProxy("true")).toEqual({ hops: 1 });
    expect(parseTrustProxy("2")).toEqual({ hops: 2 });
    expect(parseTrustProxy("loopback, 10.0.0.0/8")).toEqual({ proxies: ["loopback", "10.0.0.0/8"] });
    expect(() => parseTrustProxy("not-an-address")).toThrow();
  });

  // The per-address forgot-password limit (5 per 15 minutes) shows which address the service took.
  const forgot = (s: TestServer, socket: string, xff: string) =>
    s.req("POST", "/api/auth/password/forgot", {
      json: { email: "x@y.z" },
      ip: socket,
      headers: { "x-forwarded-for": xff },
    });

  for (const setting of ["true", "10.0.0.0/8"]) {
    test(`TRUST_PROXY=${setting}: a client rotating a fake leftmost entry is still limited by its real address`, async () => {
      const s = await startTestServer({ env: { TRUST_PROXY: setting } });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 25; i++) statuses.push((await forgot(s, "10.0.0.1", `1.2.3.${i}, 203.0.113.9`)).status);
        expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
        expect(statuses.slice(5).every((st) => st === 429)).toBe(true);
        // Another client behind the same proxy is its own address.
        expect((await forgot(s, "10.0.0.1", "203.0.113.10")).status).toBe(202);
      } finally {
        await s.close();
      }
    });
  }

  test("TRUST_PROXY=10.0.0.0/8: X-Forwarded-For from an untrusted peer is ignored", async () => {
    const s = await startTestServer({ env: { TRUST_PROXY: "10.0.0.0/8" } });
    try {
      for (let i = 0; i < 5; i++) expect((await forgot(s, "198.51.100.7", `203.0.113.${i}`)).status).toBe(202);
      // All five counted against the socket's address: the sixth, whatever it claims, is refused.
      expect((await forgot(s, "198.51.100.7", "203.0.113.99")).status).toBe(429);
    } finally {
      await s.close();
    }
  });

  test("without TRUST_PROXY the header is ignored", async () => {
    const s = await startTestServer();
    try {
      for (let i = 0; i < 5; i++) expect((await forgot(s, "10.0.0.1", `203.0.113.${i}`)).status).toBe(202);
      expect((await forgot(s, "10.0.0.1", "203.0.113.99")).status).toBe(429);
    } finally {
      await s.close();
    }
  });
});
