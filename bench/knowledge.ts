// bench:knowledge — indexing throughput (FTS5 only, and with embeddings from the local OpenAI-compatible server) and
// retrieval latency over 100,000 chunks of 384 dimensions, hybrid and FTS5-only.
// Target (issue 11): hybrid p50 < 50 ms over 100k × 384 (sqlite-vec brute force is the reference at ~140 ms).
// The large base gets its coarse quantiser (IVF) as the svc:kb-ivf job builds it; IVF and exact are timed
// alternately, query by query, so a loaded machine slows both alike and their ratio stays meaningful.
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMigrations } from "../db/migrate";
import { openSqlite } from "../db/connection";
import { createAiGateway } from "../app/ai/gateway";
import { chunkSections } from "../app/ai/knowledge/chunker";
import { knowledgeIndex } from "../app/ai/knowledge/index-store";
import { maintainIvf } from "../app/ai/knowledge/ivf-maintain";
import { seededRandom } from "../app/ai/knowledge/kmeans";
import { RAG_DEFAULTS } from "../app/ai/knowledge/rag-settings";
import { retrieve } from "../app/ai/knowledge/retrieve";
import { fakeEmbedding, startFakeOpenAi } from "../test/harness/openai-server";

const CHUNKS = Number(process.env.KB_BENCH_CHUNKS ?? 100_000);
const QUERIES = Number(process.env.KB_BENCH_QUERIES ?? 200);
const dir = mkdtempSync(join(tmpdir(), "bench-kb-"));
const VOCAB = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919) % 100003}`);
// mulberry32: the former float LCG lost precision and cycled every ~5,000 sentences, so the 100k chunks were ~19
// copies of each text and "recall against exact" compared arbitrary picks among tied duplicates.
const rnd = seededRandom(42);
const sentence = (n: number) => Array.from({ length: n }, () => VOCAB[Math.floor(rnd() ** 2 * VOCAB.length)]).join(" ");
// KB_BENCH_CORPUS=topical (default): each document is about one of 200 topics, three words in four drawn from the
// topic's own 150 words — texts on a topic share words, so their vectors cluster as real embeddings of real
// documents do. uniform: every word from the one Zipf-like vocabulary — no clusters at all, the worst case of any
// coarse quantiser (the neighbours of a query are scattered over every cell).
const TOPICAL = (process.env.KB_BENCH_CORPUS ?? "topical") === "topical";
const TOPIC_WORDS = 150;
const topicWord = (topic: number) => `t${topic}x${Math.floor(rnd() ** 2 * TOPIC_WORDS)}`;
const chunkText = (n: number, topic: number) =>
  TOPICAL
    ? Array.from({ length: n }, () =>
        rnd() < 0.75 ? topicWord(topic) : VOCAB[Math.floor(rnd() ** 2 * VOCAB.length)],
      ).join(" ")
    : sentence(n);
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
      const text = chunkText(40, d % 200);
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
  const t1 = performance.now();
  await maintainIvf(db, "b", { threshold: RAG_DEFAULTS.ivfThreshold, nowIso: () => new Date().toISOString() });
  console.log(`IVF built (k-means in a Worker, fill in slices) in ${((performance.now() - t1) / 1000).toFixed(1)} s`);
  const vectors = new Map(queries.map((q) => [q, fakeEmbedding(q)]));
  const exactSettings = { ...RAG_DEFAULTS, ivfProbes: 0 };
  const PROBES = [RAG_DEFAULTS.ivfProbes / 2, RAG_DEFAULTS.ivfProbes, RAG_DEFAULTS.ivfProbes * 2];
  const t = {
    hybridExact: [] as number[],
    hybridIvf: [] as number[],
    fts: [] as number[],
    exact: [] as number[],
    ivf: PROBES.map(() => [] as number[]),
  };
  const kept = PROBES.map(() => ({ ids: 0, distance: 0 }));
  const timed = <T>(into: number[], fn: () => T): T => {
    const t0 = performance.now();
    const r = fn();
    into.push(performance.now() - t0);
    return r;
  };
  for (const q of queries) {
    const v = vectors.get(q)!;
    timed(t.hybridExact, () => retrieve(index, "b", q, 5, exactSettings, v, null));
    timed(t.hybridIvf, () => retrieve(index, "b", q, 5, RAG_DEFAULTS, v, null));
    timed(t.fts, () => retrieve(index, "b", q, 5, RAG_DEFAULTS, null, "bench"));
    const truth = timed(t.exact, () => index.searchVectorExact("b", v, 10));
    const ids = new Set(truth.map((h) => h.chunkId));
    const kth = truth[truth.length - 1].score;
    PROBES.forEach((p, i) => {
      const hits = timed(t.ivf[i], () => index.searchVectorNearest("b", v, 10, p));
      // By id; and by distance: a hit as near as the exact 10th counts (equal distances are interchangeable).
      kept[i].ids += hits.filter((h) => ids.has(h.chunkId)).length / ids.size;
      kept[i].distance += hits.filter((h) => h.score >= kth - 1e-6).length / ids.size;
    });
  }
  const p50 = (xs: number[]) => pct(xs, 0.5);
  const f = (xs: number[]) => `p50 ${p50(xs).toFixed(1)} ms, p99 ${pct(xs, 0.99).toFixed(1)} ms`;
  const ratio = (a: number[], b: number[]) => `${(p50(a) / p50(b)).toFixed(1)}× faster`;
  console.log(`retrieval hybrid, exact vectors:     ${f(t.hybridExact)}`);
  console.log(
    `retrieval hybrid, IVF (nprobe ${RAG_DEFAULTS.ivfProbes}):   ${f(t.hybridIvf)} (${ratio(t.hybridExact, t.hybridIvf)})`,
  );
  console.log(`retrieval FTS5 only:                 ${f(t.fts)}`);
  console.log(`vector KNN, exact float brute force: ${f(t.exact)}`);
  PROBES.forEach((p, i) =>
    console.log(
      `vector KNN, IVF nprobe ${p}: ${f(t.ivf[i])} (${ratio(t.exact, t.ivf[i])}); recall@10 vs exact ` +
        `${(kept[i].distance / queries.length).toFixed(3)} by distance, ${(kept[i].ids / queries.length).toFixed(3)} by id`,
    ),
  );
  db.close();
}
rmSync(dir, { recursive: true, force: true });
