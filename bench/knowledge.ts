// bench:knowledge — indexing throughput (FTS5 only, and with embeddings from the local OpenAI-compatible server) and
// retrieval latency over 100,000 chunks of 384 dimensions, hybrid and FTS5-only.
// Target (issue 11): hybrid p50 < 50 ms over 100k × 384 (sqlite-vec brute force is the reference at ~140 ms).
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMigrations } from "../db/migrate";
import { openSqlite } from "../db/connection";
import { createAiGateway } from "../app/ai/gateway";
import { chunkSections } from "../app/ai/knowledge/chunker";
import { knowledgeIndex } from "../app/ai/knowledge/index-store";
import { RAG_DEFAULTS } from "../app/ai/knowledge/rag-settings";
import { retrieve } from "../app/ai/knowledge/retrieve";
import { fakeEmbedding, startFakeOpenAi } from "../test/harness/openai-server";

const CHUNKS = Number(process.env.KB_BENCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.KB_BENCH_QUERIES ?? 200);
const dir = mkdtempSync(join(tmpdir(), "bench-kb-"));
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 100003}`);
let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
const sentence = (n: number) => Array.from({ length: n }, () => VOCAB[Math.floor(rnd() ** 2 * VOCAB.length)]).join(" ");
const docText = (paras: number) =>
  Array.from({ length: paras }, (_, i) => `## Part ${i}\n\n${sentence(60)}.`).join("\n\n");

function freshDb(name: string): Database {
  const db = openSqlite(join(dir, name), { synchronous: "NORMAL" });
  runMigrations(db, "tenant");
  db.query(
    "INSERT INTO knowledge_bases (id, name, kind, created_at, updated_at) VALUES ('b', 'B', 'SHARED', '', '')",
  ).run();
  return db;
}
const addDoc = (db: Database, id: string) =>
  db
    .query(
      "INSERT INTO kb_documents (id, base_id, file_name, format, size, sha256, status, created_at, updated_at) VALUES (?, 'b', 'd.md', 'MD', 0, '', 'PENDING', '', '')",
    )
    .run(id);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

// 1. Indexing throughput, FTS5 only: chunk and write 200 documents of 20 sections.
{
  const db = freshDb("fts.sqlite");
  const index = knowledgeIndex(db);
  const t0 = performance.now();
  let n = 0;
  for (let d = 0; d < 200; d++) {
    const chunks = chunkSections(
      [{ text: docText(20), page: null }],
      true,
      RAG_DEFAULTS.chunkSize,
      RAG_DEFAULTS.chunkOverlap,
    );
    addDoc(db, `d${d}`);
    db.transaction(() => index.replaceDocumentChunks(`d${d}`, "b", chunks, null)).immediate();
    n += chunks.length;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(`indexing FTS5 only: ${n} chunks in ${s.toFixed(2)} s = ${Math.round(n / s)} chunks/s`);
  db.close();
}

// 2. Indexing throughput with embeddings over HTTP from the local server (batches of 32, as the indexer sends).
{
  const ai = startFakeOpenAi();
  const platformDb = openSqlite(join(dir, "platform.sqlite"), { synchronous: "NORMAL" });
  runMigrations(platformDb, "platform");
  const gw = createAiGateway({
    settings: { baseUrl: ai.url, apiKey: null, model: null, embeddingModel: "fake-embed" },
    platformSqlite: platformDb,
    clock: Date.now,
  });
  const caller = { tenantId: "t", kind: "SYSTEM" as const, userId: null, apiKeyId: null, feature: "bench" };
  const db = freshDb("embed.sqlite");
  const index = knowledgeIndex(db);
  const t0 = performance.now();
  let n = 0;
  for (let d = 0; d < 50; d++) {
    const chunks = chunkSections(
      [{ text: docText(20), page: null }],
      true,
      RAG_DEFAULTS.chunkSize,
      RAG_DEFAULTS.chunkOverlap,
    );
    const vectors: number[][] = [];
    for (let i = 0; i < chunks.length; i += 32)
      vectors.push(
        ...(await gw.embed(
          caller,
          chunks.slice(i, i + 32).map((c) => c.text),
        )),
      );
    addDoc(db, `d${d}`);
    db.transaction(() => index.replaceDocumentChunks(`d${d}`, "b", chunks, vectors)).immediate();
    n += chunks.length;
  }
  const s = (performance.now() - t0) / 1000;
  console.log(
    `indexing with embeddings (local server, 384 d): ${n} chunks in ${s.toFixed(2)} s = ${Math.round(n / s)} chunks/s`,
  );
  ai.stop();
  db.close();
  platformDb.close();
}

// 3. Retrieval latency over CHUNKS chunks of 384 dimensions.
{
  const db = freshDb("big.sqlite");
  const index = knowledgeIndex(db);
  const texts: string[] = [];
  const t0 = performance.now();
  for (let d = 0; d < CHUNKS / 100; d++) {
    const chunks = Array.from({ length: 100 }, (_, i) => {
      const text = sentence(40);
      texts.push(text);
      return { text, location: null, start: i, end: i + 1 };
    });
    addDoc(db, `d${d}`);
    db.transaction(() =>
      index.replaceDocumentChunks(
        `d${d}`,
        "b",
        chunks,
        chunks.map((c) => fakeEmbedding(c.text)),
      ),
    ).immediate();
  }
  console.log(`loaded ${CHUNKS} chunks × 384 in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const queries = Array.from({ length: QUERIES }, (_, i) =>
    texts[(i * 4817) % texts.length].split(" ").slice(0, 6).join(" "),
  );
  const time = (fn: (q: string) => unknown) =>
    queries.map((q) => {
      const t = performance.now();
      fn(q);
      return performance.now() - t;
    });
  const hybrid = time((q) => retrieve(index, "b", q, 5, RAG_DEFAULTS, fakeEmbedding(q), null));
  const fts = time((q) => retrieve(index, "b", q, 5, RAG_DEFAULTS, null, "bench"));
  const vecOnly = time((q) => index.searchVector("b", fakeEmbedding(q), 20));
  const exact = time((q) => index.searchVectorExact("b", fakeEmbedding(q), 20));
  // Recall@10 of the quantised search against the exact brute force.
  let kept = 0;
  for (const q of queries) {
    const truth = new Set(index.searchVectorExact("b", fakeEmbedding(q), 10).map((h) => h.chunkId));
    kept += index.searchVector("b", fakeEmbedding(q), 10).filter((h) => truth.has(h.chunkId)).length / truth.size;
  }
  const f = (xs: number[]) => `p50 ${pct(xs, 0.5).toFixed(1)} ms, p99 ${pct(xs, 0.99).toFixed(1)} ms`;
  console.log(`retrieval hybrid (FTS5 + vec0, RRF): ${f(hybrid)}`);
  console.log(`retrieval FTS5 only:                 ${f(fts)}`);
  console.log(
    `vector KNN, binary pass + exact rerank: ${f(vecOnly)}; recall@10 vs exact ${(kept / queries.length).toFixed(3)}`,
  );
  console.log(`vector KNN, exact float brute force:  ${f(exact)}`);
  db.close();
}
rmSync(dir, { recursive: true, force: true });
