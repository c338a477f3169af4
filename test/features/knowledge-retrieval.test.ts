import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { drainJobs, upload } from "../harness/knowledge";
import { startFakeOpenAi, type FakeOpenAi } from "../harness/openai-server";
import { QUESTIONS } from "../fixtures/knowledge/questions";

const HANDBOOK = readFileSync(join(import.meta.dir, "../fixtures/knowledge/handbook.md"), "utf8");

interface Setup {
  s: TestServer;
  token: string;
  base: string;
  tenantId: string;
}

async function setup(env: Record<string, string> = {}): Promise<Setup> {
  const s = await startTestServer({ env });
  const sa = await saToken(s);
  const t = await createTenant(s, "kb-quality", sa);
  const token = (await userInTenant(s, t, "MODELER", sa)).token;
  const base = (
    (await (await s.req("POST", "/api/a/knowledge-bases", { token, json: { name: "Handbook" } })).json()) as {
      id: string;
    }
  ).id;
  const r = await upload(
    s,
    token,
    `/api/a/knowledge-bases/${base}/documents`,
    "handbook.md",
    HANDBOOK,
    "text/markdown",
  );
  expect(r.status).toBe(202);
  await drainJobs(s);
  return { s, token, base, tenantId: t.id };
}

type SearchAnswer = { mode: string; note: string | null; hits: { location: string; chunkId: number }[] };
const search = async (x: Setup, query: string, k = 3) =>
  (await (
    await x.s.req("POST", `/api/a/knowledge-bases/${x.base}/search`, { token: x.token, json: { query, k } })
  ).json()) as SearchAnswer;

/** How many of the 20 questions have the right section among the top 3 hits. */
async function topThree(x: Setup): Promise<string[]> {
  const misses: string[] = [];
  for (const { q, heading } of QUESTIONS) {
    const r = await search(x, q);
    if (!r.hits.some((h) => h.location.endsWith(heading)))
      misses.push(`${q} -> ${r.hits.map((h) => h.location).join(" | ")}`);
  }
  return misses;
}

describe("retrieval quality, full-text only (no model configured)", () => {
  let x: Setup;
  beforeAll(async () => {
    x = await setup();
  });
  afterAll(() => x.s.close());

  test("the fixture is chunked by heading: one chunk per section, each keeping its heading path", async () => {
    const d = (await (await x.s.req("GET", `/api/a/knowledge-bases/${x.base}`, { token: x.token })).json()) as {
      chunkCount: number;
    };
    expect(d.chunkCount).toBe(21);
  });
  test("the right section is in the top 3 for each of the 20 questions, and the answer says FTS only", async () => {
    expect(await topThree(x)).toEqual([]);
    const r = await search(x, QUESTIONS[0].q);
    expect(r.mode).toBe("FTS");
    expect(r.note).toMatch(/full-text search only/);
  });
});

describe("retrieval quality, hybrid (embeddings from the local OpenAI-compatible server)", () => {
  let ai: FakeOpenAi;
  let x: Setup;
  beforeAll(async () => {
    ai = startFakeOpenAi();
    x = await setup({ AI_BASE_URL: ai.url, AI_EMBEDDING_MODEL: "fake-embed" });
  });
  afterAll(async () => {
    await x.s.close();
    ai.stop();
  });

  test("indexing embeds every chunk over HTTP and stores the vectors in the tenant's vec0 table", async () => {
    expect(ai.calls.some((c) => c.path === "/v1/embeddings")).toBe(true);
    const db = x.s.platform.tenantDbs.get(x.tenantId).sqlite;
    expect(db.query("SELECT COUNT(*) n FROM kb_vec_384").get()).toEqual({ n: 21 });
    const page = (await (
      await x.s.req("GET", `/api/a/knowledge-bases/${x.base}/documents`, { token: x.token })
    ).json()) as {
      content: { embedded: boolean; chunksDone: number; chunksTotal: number }[];
    };
    expect(page.content[0]).toMatchObject({ embedded: true, chunksDone: 21, chunksTotal: 21 });
  });

  test("the right section is in the top 3 for each of the 20 questions, fused by reciprocal rank", async () => {
    expect(await topThree(x)).toEqual([]);
    expect((await search(x, QUESTIONS[3].q)).mode).toBe("HYBRID");
  });

  test("indexing and search calls are recorded: tenant, system or user, feature, model, tokens", () => {
    const rows = x.s.platform.platformSqlite
      .query<{ feature: string; actor_kind: string; user_id: string | null; model: string; input_tokens: number }, []>(
        "SELECT feature, actor_kind, user_id, model, input_tokens FROM ai_usage WHERE tenant_id IS NOT NULL",
      )
      .all();
    const index = rows.filter((r) => r.feature === "kb-index");
    expect(index.length).toBeGreaterThan(0);
    expect(index.every((r) => r.actor_kind === "SYSTEM" && r.user_id === null && r.model === "fake-embed")).toBe(true);
    const searches = rows.filter((r) => r.feature === "kb-search");
    expect(searches.length).toBeGreaterThanOrEqual(20);
    expect(searches.every((r) => r.actor_kind === "USER" && r.user_id && r.input_tokens > 0)).toBe(true);
  });

  test("deleting the document deletes its vectors in the same transaction", async () => {
    const page = (await (
      await x.s.req("GET", `/api/a/knowledge-bases/${x.base}/documents`, { token: x.token })
    ).json()) as {
      content: { id: string }[];
    };
    const r = await x.s.req("DELETE", `/api/a/knowledge-bases/${x.base}/documents/${page.content[0].id}`, {
      token: x.token,
    });
    expect(r.status).toBe(204);
    const db = x.s.platform.tenantDbs.get(x.tenantId).sqlite;
    expect(db.query("SELECT COUNT(*) n FROM kb_vec_384").get()).toEqual({ n: 0 });
    expect(db.query("SELECT COUNT(*) n FROM kb_fts").get()).toEqual({ n: 0 });
  });

  test("a failing model retries with backoff, then leaves the document FAILED with its reason", async () => {
    ai.failEmbeddings(100);
    const d = (await (
      await upload(x.s, x.token, `/api/a/knowledge-bases/${x.base}/documents`, "x.txt", "retry me")
    ).json()) as { id: string };
    const status = async () =>
      (
        (await (await x.s.req("GET", `/api/a/knowledge-bases/${x.base}/documents`, { token: x.token })).json()) as {
          content: { id: string; status: string; error: string | null }[];
        }
      ).content.find((c) => c.id === d.id)!;
    await x.s.platform.ports.serviceJobs.runDue();
    expect(await status()).toMatchObject({ status: "PENDING" });
    expect((await status()).error).toMatch(/^retrying:/);
    // Not due again until the backoff has passed.
    expect(await x.s.platform.ports.serviceJobs.runDue()).toBe(0);
    for (let i = 0; i < 3; i++) {
      x.s.clock.advance(10 * 60_000);
      await x.s.platform.ports.serviceJobs.runDue();
    }
    expect(await status()).toMatchObject({ status: "FAILED" });
    ai.failEmbeddings(0);
  });
});
