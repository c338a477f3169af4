import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../db/connection";
import { runMigrations } from "../../db/migrate";
import { knowledgeIndex, type KnowledgeIndex } from "../../app/ai/knowledge/index-store";
import { ivfDue, maintainIvf } from "../../app/ai/knowledge/ivf-maintain";
import { centroidsOf, ivfStore, ivfTable } from "../../app/ai/knowledge/ivf-store";
import { seededRandom } from "../../app/ai/knowledge/kmeans";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { drainJobs, upload } from "../harness/knowledge";
import { startFakeOpenAi } from "../harness/openai-server";
import { startTestServer } from "../harness/server";

// A synthetic clustered set: 40 random unit centres in 32 dimensions, points scattered around them.
const DIMS = 32;
const CLUSTERS = 40;
const THRESHOLD = 1000;
const rnd = seededRandom(7);
const gauss = () => Math.sqrt(-2 * Math.log(rnd() + 1e-12)) * Math.cos(2 * Math.PI * rnd());
const unit = (v: number[]) => {
  const n = Math.hypot(...v) || 1;
  return v.map((x) => x / n);
};
const centres = Array.from({ length: CLUSTERS }, () => unit(Array.from({ length: DIMS }, gauss)));
const near = (c: number, spread = 0.25) => unit(centres[c].map((x) => x + (spread * gauss()) / Math.sqrt(DIMS)));

const nowIso = () => new Date().toISOString();
let dir: string;
let db: Database;
let index: KnowledgeIndex;
let docs = 0;

/** Adds a document of `n` chunks (vectors around random centres) to base `b`; returns its id. */
function addDocument(base: string, n: number): string {
  const id = `d${docs++}`;
  db.query(
    "INSERT INTO kb_documents (id, base_id, file_name, format, size, sha256, status, created_at, updated_at) VALUES (?, ?, 'd.md', 'MD', 0, '', 'INDEXED', '', '')",
  ).run(id, base);
  const chunks = Array.from({ length: n }, (_, i) => ({
    text: `chunk ${id} ${i}`,
    location: null,
    start: i,
    end: i + 1,
  }));
  const vectors = chunks.map(() => near(Math.floor(rnd() * CLUSTERS)));
  db.transaction(() => index.replaceDocumentChunks(id, base, chunks, vectors)).immediate();
  return id;
}

const queries = Array.from({ length: 30 }, (_, i) => near(i % CLUSTERS, 0.3));
/** Mean recall@10 of the quantised search against the exact one. */
function recall(base: string, probes: number): number {
  let kept = 0;
  for (const q of queries) {
    const truth = new Set(index.searchVectorExact(base, q, 10).map((h) => h.chunkId));
    kept += index.searchVectorNearest(base, q, 10, probes).filter((h) => truth.has(h.chunkId)).length / truth.size;
  }
  return kept / queries.length;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "kb-ivf-"));
  db = openSqlite(join(dir, "t.sqlite"));
  runMigrations(db, "tenant");
  for (const b of ["big", "small"])
    db.query(
      "INSERT INTO knowledge_bases (id, name, kind, created_at, updated_at) VALUES (?, ?, 'SHARED', '', '')",
    ).run(b, b);
  index = knowledgeIndex(db);
  for (let d = 0; d < 12; d++) addDocument("big", 100);
  addDocument("small", 300);
});
afterAll(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("coarse quantiser (IVF) of a large base", () => {
  test("a base below the threshold keeps the exact search", async () => {
    expect(ivfDue(db, "small", THRESHOLD)).toBeNull();
    expect(await maintainIvf(db, "small", { threshold: THRESHOLD, nowIso })).toBeNull();
    expect(ivfStore(db).rowsOf("small")).toEqual([]);
    const q = queries[0];
    expect(index.searchVectorNearest("small", q, 10, 1)).toEqual(index.searchVectorExact("small", q, 10));
  });

  test("trained in a Worker, its search returns the exact top 10 on a clustered set", async () => {
    expect(ivfDue(db, "big", THRESHOLD)).toBe("TRAIN");
    expect(await maintainIvf(db, "big", { threshold: THRESHOLD, nowIso })).toBe("TRAIN");
    const [row] = ivfStore(db).rowsOf("big");
    expect(row.state).toBe("ACTIVE");
    expect(row.cells).toBe(35); // ≈ √1200
    const n = db.query<{ n: number }, []>(`SELECT COUNT(*) n FROM ${ivfTable(row.id)}`).get()!.n;
    expect(n).toBe(1200);
    expect(ivfDue(db, "big", THRESHOLD)).toBeNull();
    expect(recall("big", 4)).toBeGreaterThanOrEqual(0.95);
    // One probed cell reads ~1/35 of the base: the answer must come from the quantiser, not the exact scan.
    expect(recall("big", 1)).toBeLessThan(1);
  });

  test("new chunks are assigned to their cell at indexing time; deleting a document removes them from the cells", () => {
    const [row] = ivfStore(db).rowsOf("big");
    const count = () => db.query<{ n: number }, []>(`SELECT COUNT(*) n FROM ${ivfTable(row.id)}`).get()!.n;
    const doc = addDocument("big", 50);
    expect(count()).toBe(1250);
    const ids = db
      .query<{ id: number }, [string]>("SELECT id FROM kb_chunks WHERE document_id = ?")
      .all(doc)
      .map((r) => r.id);
    expect(db.query(`SELECT rowid FROM ${ivfTable(row.id)} WHERE rowid IN (${ids.join(",")})`).all()).toHaveLength(50);
    index.removeDocument(doc);
    expect(count()).toBe(1200);
    expect(db.query(`SELECT rowid FROM ${ivfTable(row.id)} WHERE rowid IN (${ids.join(",")})`).all()).toHaveLength(0);
    for (const q of queries.slice(0, 5))
      expect(index.searchVectorNearest("big", q, 10, 35).map((h) => h.chunkId)).toEqual(
        index.searchVectorExact("big", q, 10).map((h) => h.chunkId),
      );
  });

  test("a retrain once the base has doubled keeps queries answering from the old generation until the switch", async () => {
    for (let d = 0; d < 12; d++) addDocument("big", 100);
    expect(ivfDue(db, "big", THRESHOLD)).toBe("TRAIN");
    const [old] = ivfStore(db).rowsOf("big");
    const answers: number[] = [];
    let release!: () => void;
    const trained = new Promise<void>((r) => (release = r));
    // Training is held until queries ran against the old generation; then the fill runs slice by slice.
    const job = maintainIvf(db, "big", {
      threshold: THRESHOLD,
      nowIso,
      train: async (d, req) => {
        await trained;
        const { trainInWorker } = await import("../../app/ai/knowledge/ivf-maintain");
        return trainInWorker(d, req);
      },
    });
    for (let i = 0; i < 3; i++) answers.push(index.searchVectorNearest("big", queries[i], 10, 4).length);
    expect(ivfStore(db).active("big", DIMS)?.id).toBe(old.id);
    release();
    // While the new generation fills, every query still answers (ACTIVE is the old one until the switch).
    let duringBuild = 0;
    let done = false;
    job.then(() => (done = true));
    while (!done) {
      if (ivfStore(db).building("big")) duringBuild++;
      answers.push(index.searchVectorNearest("big", queries[answers.length % 30], 10, 4).length);
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(await job).toBe("TRAIN");
    expect(duringBuild).toBeGreaterThan(0);
    expect(answers.every((n) => n === 10)).toBe(true);
    const rows = ivfStore(db).rowsOf("big");
    expect(rows).toHaveLength(1);
    expect(rows[0].id).not.toBe(old.id);
    expect(rows[0].trained_count).toBe(2400);
    expect(db.query("SELECT name FROM sqlite_master WHERE name = ?").get(ivfTable(old.id))).toBeNull();
    expect(recall("big", 6)).toBeGreaterThanOrEqual(0.95);
  });

  test("a build interrupted mid-fill (kill -9) resumes from its cursor without training again", async () => {
    const store = ivfStore(db);
    const [active] = store.rowsOf("big");
    for (let d = 0; d < 24; d++) addDocument("big", 100);
    const ids = db
      .query<{ id: number }, []>("SELECT id FROM kb_chunks WHERE base_id = 'big' ORDER BY id")
      .all()
      .map((r) => r.id);
    // What a crashed job leaves: a BUILDING generation filled up to its cursor, the rest missing.
    const half = ids[Math.floor(ids.length / 2)];
    db.transaction(() => {
      const row = store.create("big", DIMS, centroidsOf(db, active), ids.length, nowIso());
      const read = db.query<{ e: Uint8Array }, [number]>(`SELECT embedding e FROM kb_vec_${DIMS} WHERE rowid = ?`);
      store.insert(
        row,
        ids.filter((id) => id <= half).map((id) => ({ id, vector: read.get(id)!.e })),
      );
      db.query("UPDATE kb_ivf_indexes SET cursor = ? WHERE id = ?").run(half, row.id);
    })();
    const building = store.building("big")!;
    expect(
      await maintainIvf(db, "big", {
        threshold: THRESHOLD,
        nowIso,
        train: () => Promise.reject(new Error("a resumed build must not train again")),
      }),
    ).toBe("TRAIN");
    const rows = store.rowsOf("big");
    expect(rows.map((r) => [r.id, r.state])).toEqual([[building.id, "ACTIVE"]]);
    expect(db.query<{ n: number }, []>(`SELECT COUNT(*) n FROM ${ivfTable(building.id)}`).get()!.n).toBe(ids.length);
    expect(recall("big", 6)).toBeGreaterThanOrEqual(0.95);
  });

  test("deleting the base drops its quantiser", () => {
    const [row] = ivfStore(db).rowsOf("big");
    db.transaction(() => index.removeBase("big"))();
    expect(ivfStore(db).rowsOf("big")).toEqual([]);
    expect(db.query("SELECT name FROM sqlite_master WHERE name = ?").get(ivfTable(row.id))).toBeNull();
  });
});

describe("through HTTP: a base past the threshold gets its quantiser by a service job; search answers as before", () => {
  test("upload 1,100 sections, the svc:kb-ivf job builds the IVF, search finds each probed section first", async () => {
    const ai = startFakeOpenAi();
    const s = await startTestServer({ env: { AI_BASE_URL: ai.url, AI_EMBEDDING_MODEL: "fake-embed" } });
    try {
      const sa = await saToken(s);
      const put = await s.req("PUT", "/api/admin/rag-config", {
        token: sa,
        json: { chunkSize: 200, chunkOverlap: 0, ivfThreshold: 1000, ivfProbes: 8 },
      });
      expect(await put.json()).toMatchObject({ ivfThreshold: 1000, ivfProbes: 8 });
      const t = await createTenant(s, "kb-ivf", sa);
      const token = (await userInTenant(s, t, "MODELER", sa)).token;
      const user = (await userInTenant(s, t, "USER", sa)).token;
      const base = (
        (await (await s.req("POST", "/api/a/knowledge-bases", { token, json: { name: "Big" } })).json()) as {
          id: string;
        }
      ).id;
      const words = (i: number) => Array.from({ length: 8 }, (_, j) => `term${(i * 8 + j) * 7919}`).join(" ");
      const md = Array.from({ length: 1100 }, (_, i) => `## Section ${i}\n\nThe ${words(i)} paragraph.`).join("\n\n");
      const r = await upload(s, token, `/api/a/knowledge-bases/${base}/documents`, "big.md", md, "text/markdown");
      expect(r.status).toBe(202);
      await drainJobs(s);
      const db = s.platform.tenantDbs.get(t.id).sqlite;
      const rows = ivfStore(db).rowsOf(base);
      expect(rows.map((x) => x.state)).toEqual(["ACTIVE"]);
      expect(db.query<{ n: number }, []>(`SELECT COUNT(*) n FROM ${ivfTable(rows[0].id)}`).get()!.n).toBe(1100);
      for (const i of [3, 512, 1099]) {
        const res = await s.req("POST", `/api/a/knowledge-bases/${base}/search`, {
          token,
          json: { query: words(i), k: 3 },
        });
        expect(res.status).toBe(200);
        const body = (await res.json()) as { mode: string; hits: { location: string }[] };
        expect(body.mode).toBe("HYBRID");
        expect(body.hits[0].location).toEndWith(`Section ${i}`);
      }
      const refused = await s.req("POST", `/api/a/knowledge-bases/${base}/search`, {
        token: user,
        json: { query: words(1) },
      });
      expect(refused.status).toBe(403);
    } finally {
      await s.close();
      ai.stop();
    }
  });
});
