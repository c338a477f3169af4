import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";

// Issue 29 point 6: browser security headers on every answer, a CSP on every HTML answer, passive inline downloads.
let s: TestServer;
let manager = "";

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "headers", sa);
  manager = (await userInTenant(s, t, "MANAGER", sa)).token;
});
afterAll(async () => {
  await s.close();
});

function expectEveryAnswerHeaders(res: Response) {
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  expect(res.headers.get("x-frame-options")).toBe("DENY");
  expect(res.headers.get("referrer-policy")).toBe("no-referrer");
}

describe("security headers", () => {
  test("HTML pages (console, SSO landing, Swagger UI) carry a CSP of the own origin, no inline script, no framing", async () => {
    for (const path of ["/", "/sso/complete", "/swagger-ui"]) {
      const res = await s.req("GET", path);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toStartWith("text/html");
      expectEveryAnswerHeaders(res);
      const csp = res.headers.get("content-security-policy") as string;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp.match(/script-src[^;]*/)?.[0]).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
      // The page itself obeys it: every script is a file of the own origin.
      const html = await res.text();
      for (const tag of html.match(/<script\b[^>]*>/g) ?? []) expect(tag).toMatch(/src="\/[^/]/);
      expect(html).not.toMatch(/<script\b(?![^>]*\bsrc=)[^>]*>/);
      expect(html).not.toMatch(/\son[a-z]+=/i);
    }
  });

  test("API answers, successes and errors alike, carry nosniff and no framing; JSON gets no page CSP", async () => {
    const answers = [
      await s.req("GET", "/health"),
      await s.req("GET", "/api/auth/me"),
      await s.req("GET", "/api/nothing-here"),
      await s.req("GET", "/v3/api-docs"),
      await s.req("POST", "/api/auth/login", { json: { email: "x" } }),
      await s.req("GET", "/api/a/attachments?entityType=GLOBAL&entityId=x", { token: manager }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 200, 400, 200]);
    for (const res of answers) {
      expectEveryAnswerHeaders(res);
      expect(res.headers.get("content-security-policy")).toBeNull();
    }
  });
});

describe("attachment downloads", () => {
  const upload = async (name: string, type: string, content: BlobPart) => {
    const f = new FormData();
    f.append("file", new Blob([content], { type }), name);
    f.append("entityType", "GLOBAL");
    f.append("entityId", "headers");
    const res = await s.req("POST", "/api/a/attachments", { token: manager, body: f });
    expect(res.status).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const download = (id: string) => s.req("GET", `/api/a/attachments/${id}/download?inline=true`, { token: manager });
  const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

  test("passive types (raster image, PDF, plain text) are previewed inline, without a sandbox", async () => {
    for (const [name, type, body] of [
      ["pic.png", "image/png", PNG],
      ["doc.pdf", "application/pdf", "%PDF-1.4\n%%EOF\n"],
      ["note.txt", "text/plain", "hello"],
    ] as const) {
      const res = await download(await upload(name, type, body));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-disposition")).toStartWith("inline;");
      expect(res.headers.get("content-security-policy")).toBeNull();
      expectEveryAnswerHeaders(res);
    }
  });

  test("SVG, HTML and anything else asked inline is an attachment under CSP sandbox", async () => {
    for (const [name, type, body] of [
      ["evil.svg", "image/svg+xml", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ["evil.html", "text/html", "<script>alert(document.cookie)</script>"],
      ["evil.xml", "application/xml", "<x/>"],
      ["blob.bin", "application/octet-stream", "MZ"],
    ] as const) {
      const id = await upload(name, type, body);
      for (const res of [
        await download(id),
        await s.req("GET", `/api/a/attachments/${id}/download`, { token: manager }),
      ]) {
        expect(res.status).toBe(200);
        expect(res.headers.get("content-disposition")).toStartWith("attachment;");
        expect(res.headers.get("content-security-policy")).toBe("sandbox");
        expectEveryAnswerHeaders(res);
      }
    }
  });
});
