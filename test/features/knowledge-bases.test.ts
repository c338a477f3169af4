import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestServer, type TestServer } from "../harness/server";
import { apiKey, createTenant, expectError, saTenantToken, saToken, userInTenant } from "../harness/fixtures";
import { drainJobs, tinyPdf, upload } from "../harness/knowledge";

let s: TestServer;
const tok: Record<string, string> = {};
let key = "";
let tenantId = "";

beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "kb-one", sa);
  tenantId = t.id;
  const t2 = await createTenant(s, "kb-two", sa);
  for (const role of ["ADMIN", "MODELER", "MANAGER", "USER"] as const)
    tok[role] = (await userInTenant(s, t, role, sa)).token;
  tok.SA = await saTenantToken(s, t);
  tok.OTHER = (await userInTenant(s, t2, "MODELER", sa)).token;
  key = (await apiKey(s, tok.ADMIN, ["read", "write"])).key;
});
afterAll(() => s.close());

const json = async <T = Record<string, unknown>>(r: Response, status: number): Promise<T> => {
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status}: ${await r.text()}`);
  return (await r.json()) as T;
};
const createBase = (who: string, body: unknown) =>
  s.req("POST", "/api/a/knowledge-bases", { token: tok[who], json: body });

describe("knowledge bases: roles and refusals", () => {
  test("Manager and Modeler create and read; a USER gets 403 on every route; an API key 403 (not 404)", async () => {
    const a = await json<{ id: string; isGlobal: boolean }>(await createBase("MANAGER", { name: "Manuals" }), 201);
    expect(a.isGlobal).toBe(false);
    await json(await createBase("MODELER", { name: "Policies", description: "HR" }), 201);
    const paths: [string, string][] = [
      ["GET", "/api/a/knowledge-bases"],
      ["POST", "/api/a/knowledge-bases"],
      ["GET", `/api/a/knowledge-bases/${a.id}`],
      ["DELETE", `/api/a/knowledge-bases/${a.id}`],
      ["GET", `/api/a/knowledge-bases/${a.id}/documents`],
      ["POST", `/api/a/knowledge-bases/${a.id}/documents`],
      ["DELETE", `/api/a/knowledge-bases/${a.id}/documents/x`],
      ["POST", `/api/a/knowledge-bases/${a.id}/search`],
      ["GET", "/api/a/knowledge-bases/process/p1"],
      ["POST", `/api/a/knowledge-bases/process/p1/link/${a.id}`],
      ["DELETE", `/api/a/knowledge-bases/process/p1/unlink/${a.id}`],
      ["GET", "/api/a/definitions/p1/knowledge/documents"],
      ["POST", "/api/a/definitions/p1/knowledge/documents"],
      ["DELETE", "/api/a/definitions/p1/knowledge/documents/x"],
      ["GET", "/api/a/definitions/p1/knowledge/count"],
      ["DELETE", "/api/a/definitions/p1/knowledge"],
      ["POST", "/api/a/definitions/p1/knowledge/reindex"],
    ];
    for (const [method, path] of paths) {
      await expectError(await s.req(method, path, { token: tok.USER, json: { name: "x", query: "x" } }), 403);
      const byKey = await s.req(method, path, { apiKey: key, json: { name: "x", query: "x" } });
      expect([path, byKey.status]).toEqual([path, 403]);
    }
  });

  test("isGlobal true only for SUPER_ADMIN; every tenant then sees the global base", async () => {
    await expectError(await createBase("ADMIN", { name: "G", isGlobal: true }), 403, /SUPER_ADMIN/);
    await expectError(await createBase("MODELER", { name: "G", isGlobal: true }), 403);
    const g = await json<{ id: string; isGlobal: boolean }>(
      await createBase("SA", { name: "Global", isGlobal: true }),
      201,
    );
    expect(g.isGlobal).toBe(true);
    const other = await json<{ id: string }[]>(await s.req("GET", "/api/a/knowledge-bases", { token: tok.OTHER }), 200);
    expect(other.map((b) => b.id)).toContain(g.id);
    // A tenant member may neither upload to nor delete the global layer.
    await expectError(await upload(s, tok.MODELER, `/api/a/knowledge-bases/${g.id}/documents`, "a.txt", "x"), 403);
    await expectError(await s.req("DELETE", `/api/a/knowledge-bases/${g.id}`, { token: tok.ADMIN }), 403);
    expect((await s.req("DELETE", `/api/a/knowledge-bases/${g.id}`, { token: tok.SA })).status).toBe(204);
  });

  test("malformed bodies answer 400 with fieldErrors; unsupported types 400 naming PDF, TXT, MD; nothing stored", async () => {
    await expectError(await createBase("MODELER", {}), 400);
    await expectError(await createBase("MODELER", { name: "" }), 400);
    const b = await json<{ id: string }>(await createBase("MODELER", { name: "Refusals" }), 201);
    const bad = await upload(
      s,
      tok.MODELER,
      `/api/a/knowledge-bases/${b.id}/documents`,
      "a.docx",
      "x",
      "application/msword",
    );
    await expectError(bad, 400, /PDF, TXT or MD/);
    await expectError(
      await s.req("POST", `/api/a/knowledge-bases/${b.id}/search`, { token: tok.MODELER, json: { k: 3 } }),
      400,
    );
    const page = await json<{ totalElements: number }>(
      await s.req("GET", `/api/a/knowledge-bases/${b.id}/documents`, { token: tok.MODELER }),
      200,
    );
    expect(page.totalElements).toBe(0);
  });

  test("another tenant's base answers 404 on every route", async () => {
    const b = await json<{ id: string }>(await createBase("MODELER", { name: "Mine" }), 201);
    const o = { token: tok.OTHER };
    await expectError(await s.req("GET", `/api/a/knowledge-bases/${b.id}`, o), 404);
    await expectError(await s.req("DELETE", `/api/a/knowledge-bases/${b.id}`, o), 404);
    await expectError(await s.req("GET", `/api/a/knowledge-bases/${b.id}/documents`, o), 404);
    await expectError(await upload(s, tok.OTHER, `/api/a/knowledge-bases/${b.id}/documents`, "a.txt", "x"), 404);
    await expectError(
      await s.req("POST", `/api/a/knowledge-bases/${b.id}/search`, { ...o, json: { query: "x" } }),
      404,
    );
    await expectError(await s.req("POST", `/api/a/knowledge-bases/process/p/link/${b.id}`, o), 404);
  });

  test("an upload above MAX_UPLOAD_BYTES answers 413 and stores nothing", async () => {
    const small = await startTestServer({ env: { MAX_UPLOAD_BYTES: "1000" } });
    try {
      const sa = await saToken(small);
      const t = await createTenant(small, "kb-small", sa);
      const m = (await userInTenant(small, t, "MODELER", sa)).token;
      const b = (await (
        await small.req("POST", "/api/a/knowledge-bases", { token: m, json: { name: "B" } })
      ).json()) as { id: string };
      await expectError(
        await upload(small, m, `/api/a/knowledge-bases/${b.id}/documents`, "big.txt", "x".repeat(5000)),
        413,
      );
      const page = (await (
        await small.req("GET", `/api/a/knowledge-bases/${b.id}/documents`, { token: m })
      ).json()) as { totalElements: number };
      expect(page.totalElements).toBe(0);
    } finally {
      await small.close();
    }
  });
});

describe("documents and indexing without a model (full-text only)", () => {
  let base = "";
  test("upload answers 202 PENDING at once, indexing runs as a job and ends INDEXED with progress", async () => {
    base = (await json<{ id: string }>(await createBase("MODELER", { name: "Handbook" }), 201)).id;
    const r = await json<{ id: string; status: string }>(
      await upload(
        s,
        tok.MODELER,
        `/api/a/knowledge-bases/${base}/documents`,
        "notes.md",
        "# Boots\n\nSteel-toe boots are mandatory.\n\n# Vans\n\nElectric vans are leased.",
      ),
      202,
    );
    expect(r.status).toBe("PENDING");
    let page = await json<{ content: { status: string }[] }>(
      await s.req("GET", `/api/a/knowledge-bases/${base}/documents`, { token: tok.MANAGER }),
      200,
    );
    expect(page.content[0].status).toBe("PENDING");
    await drainJobs(s);
    page = await json(await s.req("GET", `/api/a/knowledge-bases/${base}/documents`, { token: tok.MANAGER }), 200);
    expect(page.content[0]).toMatchObject({
      status: "INDEXED",
      chunksDone: 2,
      chunksTotal: 2,
      embedded: false,
      error: null,
    });
    // Who uploaded it, by name: the Modeler's display name and e-mail beside the id.
    const who = page.content[0] as unknown as { uploadedBy: string; uploadedByUser: { id: string; email: string } };
    expect(who.uploadedByUser.id).toBe(who.uploadedBy);
    expect(who.uploadedByUser.email).toEndWith("-modeler@test.local");
    const d = await json<{ documentCount: number; chunkCount: number }>(
      await s.req("GET", `/api/a/knowledge-bases/${base}`, { token: tok.MODELER }),
      200,
    );
    expect(d).toMatchObject({ documentCount: 1, chunkCount: 2 });
  });

  test("search is full-text only and says so; hits carry snippet, document and heading", async () => {
    const r = await json<{
      mode: string;
      note: string;
      hits: { location: string; fileName: string; snippet: string }[];
    }>(
      await s.req("POST", `/api/a/knowledge-bases/${base}/search`, {
        token: tok.MODELER,
        json: { query: "electric van lease", k: 3 },
      }),
      200,
    );
    expect(r.mode).toBe("FTS");
    expect(r.note).toMatch(/No embedding model/);
    expect(r.hits[0]).toMatchObject({ location: "Vans", fileName: "notes.md" });
    expect(r.hits[0].snippet).toContain("Electric vans");
  });

  test("PDF pages are extracted with their page; an unreadable PDF ends FAILED with the reason (upload still 202)", async () => {
    const pdf = tinyPdf(["Compressor warranty lasts five years", "Filters are replaced every spring"]);
    await json(
      await upload(s, tok.MODELER, `/api/a/knowledge-bases/${base}/documents`, "manual.pdf", pdf, "application/pdf"),
      202,
    );
    await json(
      await upload(
        s,
        tok.MODELER,
        `/api/a/knowledge-bases/${base}/documents`,
        "broken.pdf",
        "not a pdf",
        "application/pdf",
      ),
      202,
    );
    await json(await upload(s, tok.MODELER, `/api/a/knowledge-bases/${base}/documents`, "empty.txt", "   \n"), 202);
    await drainJobs(s);
    const page = await json<{ content: { fileName: string; status: string; error: string | null }[] }>(
      await s.req("GET", `/api/a/knowledge-bases/${base}/documents?size=10`, { token: tok.MODELER }),
      200,
    );
    const by = Object.fromEntries(page.content.map((d) => [d.fileName, d]));
    expect(by["manual.pdf"].status).toBe("INDEXED");
    expect(by["broken.pdf"]).toMatchObject({ status: "FAILED" });
    expect(by["broken.pdf"].error).toMatch(/not a PDF/);
    expect(by["empty.txt"]).toMatchObject({ status: "FAILED", error: "The document contains no text" });
    const r = await json<{ hits: { location: string; fileName: string }[] }>(
      await s.req("POST", `/api/a/knowledge-bases/${base}/search`, {
        token: tok.MODELER,
        json: { query: "filters spring" },
      }),
      200,
    );
    expect(r.hits[0]).toMatchObject({ fileName: "manual.pdf", location: "page 2" });
  });

  test("documents paginate with size default 20", async () => {
    const b = (await json<{ id: string }>(await createBase("MODELER", { name: "Many" }), 201)).id;
    for (let i = 0; i < 22; i++)
      await upload(s, tok.MODELER, `/api/a/knowledge-bases/${b}/documents`, `d${i}.txt`, `text ${i}`);
    const p = await json<{ content: unknown[]; size: number; totalElements: number; totalPages: number }>(
      await s.req("GET", `/api/a/knowledge-bases/${b}/documents`, { token: tok.MODELER }),
      200,
    );
    expect(p).toMatchObject({ size: 20, totalElements: 22, totalPages: 2 });
    expect(p.content).toHaveLength(20);
  });

  test("deleting a document deletes its chunks from both indexes; deleting it while queued leaves nothing", async () => {
    const b = (await json<{ id: string }>(await createBase("MODELER", { name: "Delete" }), 201)).id;
    const d1 = (
      await json<{ id: string }>(
        await upload(
          s,
          tok.MODELER,
          `/api/a/knowledge-bases/${b}/documents`,
          "a.txt",
          "Zebra crossings are painted white.",
        ),
        202,
      )
    ).id;
    await drainJobs(s);
    expect((await s.req("DELETE", `/api/a/knowledge-bases/${b}/documents/${d1}`, { token: tok.MANAGER })).status).toBe(
      204,
    );
    const d2 = (
      await json<{ id: string }>(
        await upload(s, tok.MODELER, `/api/a/knowledge-bases/${b}/documents`, "b.txt", "Zebra stripes."),
        202,
      )
    ).id;
    expect((await s.req("DELETE", `/api/a/knowledge-bases/${b}/documents/${d2}`, { token: tok.MANAGER })).status).toBe(
      204,
    );
    await drainJobs(s);
    const db = s.platform.tenantDbs.get(tenantId).sqlite;
    expect(db.query("SELECT COUNT(*) n FROM kb_fts WHERE kb_fts MATCH 'zebra'").get()).toEqual({ n: 0 });
    expect(db.query("SELECT COUNT(*) n FROM kb_chunks WHERE text LIKE '%Zebra%'").get()).toEqual({ n: 0 });
    const d = await json<{ chunkCount: number; documentCount: number }>(
      await s.req("GET", `/api/a/knowledge-bases/${b}`, { token: tok.MODELER }),
      200,
    );
    expect(d).toMatchObject({ chunkCount: 0, documentCount: 0 });
    const r = await json<{ hits: unknown[] }>(
      await s.req("POST", `/api/a/knowledge-bases/${b}/search`, { token: tok.MODELER, json: { query: "zebra" } }),
      200,
    );
    expect(r.hits).toEqual([]);
    await expectError(
      await s.req("DELETE", `/api/a/knowledge-bases/${b}/documents/${d1}`, { token: tok.MANAGER }),
      404,
    );
  });
});
