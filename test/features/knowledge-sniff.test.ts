import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { drainJobs, tinyPdf, upload } from "../harness/knowledge";

// Issue 29 point 8: an upload that is not valid text of its declared type ends FAILED with a reason, nothing indexed.
let s: TestServer;
let token = "";
let base = "";

/** Deterministic "random" bytes (a linear congruential generator), as an attacker's garbage.txt. */
function garbage(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 12345;
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}
const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...new TextEncoder().encode(p)] : p)));
const PROSE = "Warehouse shelves are inspected every Monday by the shift lead. ".repeat(20);

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "kb-sniff", sa);
  token = (await userInTenant(s, t, "MODELER", sa)).token;
  const r = await s.req("POST", "/api/a/knowledge-bases", { token, json: { name: "Uploads" } });
  base = ((await r.json()) as { id: string }).id;
});
afterAll(() => s.close());

describe("knowledge uploads are sniffed before indexing", () => {
  test("binary garbage, another file type's signature and NUL bytes end FAILED with the reason; text passes", async () => {
    const files: [string, Uint8Array | string, string?][] = [
      ["garbage.txt", garbage(6 * 1024)],
      ["image.txt", bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], PROSE)],
      ["archive.md", bytes([0x50, 0x4b, 0x03, 0x04], PROSE)],
      ["really-a-pdf.txt", tinyPdf(["Shelves are inspected"])],
      ["nul.txt", bytes(PROSE, [0], PROSE)],
      [
        "latin1-heavy.txt",
        bytes(...Array.from({ length: 40 }, () => ["Gr", [0xfc], "n"] as [string, number[], string]).flat()),
      ],
      ["fake.pdf", bytes("Shelves are inspected every Monday"), "application/pdf"],
      // A stray Latin-1 letter in otherwise UTF-8 text is a small share: indexed.
      ["stray-latin1.txt", bytes(PROSE, "Caf", [0xe9], " menu")],
      ["good.md", `# Shelves\n\n${PROSE}`],
    ];
    for (const [name, content, type] of files)
      expect((await upload(s, token, `/api/a/knowledge-bases/${base}/documents`, name, content, type)).status).toBe(
        202,
      );
    await drainJobs(s);
    const page = (await (await s.req("GET", `/api/a/knowledge-bases/${base}/documents?size=50`, { token })).json()) as {
      content: { fileName: string; status: string; error: string | null; chunksTotal: number }[];
    };
    const by = Object.fromEntries(page.content.map((d) => [d.fileName, d]));
    const failed: Record<string, RegExp> = {
      "garbage.txt": /NUL bytes|not UTF-8/,
      "image.txt": /a PNG image, not text/,
      "archive.md": /a ZIP archive/,
      "really-a-pdf.txt": /a PDF, not text/,
      "nul.txt": /NUL bytes/,
      "latin1-heavy.txt": /not UTF-8 text \(\d+ %/,
      "fake.pdf": /not a PDF/,
    };
    for (const [name, reason] of Object.entries(failed)) {
      expect([name, by[name]?.status]).toEqual([name, "FAILED"]);
      expect(by[name]?.error ?? "").toMatch(reason);
      expect(by[name]?.chunksTotal).toBe(0);
    }
    expect(by["stray-latin1.txt"]?.status).toBe("INDEXED");
    expect(by["good.md"]?.status).toBe("INDEXED");
    // Nothing of the refused files is found.
    const r = (await (
      await s.req("POST", `/api/a/knowledge-bases/${base}/search`, { token, json: { query: "shelves inspected" } })
    ).json()) as { hits: { fileName: string }[] };
    expect(r.hits.length).toBeGreaterThan(0);
    for (const h of r.hits) expect(["stray-latin1.txt", "good.md"]).toContain(h.fileName);
  });
});
