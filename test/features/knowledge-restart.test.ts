import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { drainJobs, upload } from "../harness/knowledge";
import { startFakeOpenAi } from "../harness/openai-server";

const ai = startFakeOpenAi();
const dataDir = mkdtempSync(join(tmpdir(), "pms-kb-crash-"));
const env = { DATA_DIR: dataDir, AI_BASE_URL: ai.url, AI_EMBEDDING_MODEL: "fake-embed" };
afterAll(() => {
  ai.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const doc = Array.from({ length: 40 }, (_, i) => `# Section ${i}\n\nParagraph number ${i} about topic${i}.`).join(
  "\n\n",
);

test("kill -9 during indexing: a restart releases the dead process's claim, finishes the job, no duplicate chunks", async () => {
  let s: TestServer = await startTestServer({ env });
  const sa = await saToken(s);
  const t = await createTenant(s, "kb-crash", sa);
  const token = (await userInTenant(s, t, "MODELER", sa)).token;
  const base = (
    (await (await s.req("POST", "/api/a/knowledge-bases", { token, json: { name: "B" } })).json()) as { id: string }
  ).id;
  const up = await upload(s, token, `/api/a/knowledge-bases/${base}/documents`, "big.md", doc);
  expect(up.status).toBe(202);
  await s.platform.stop();

  // A real second process claims the job and hangs on the model; it dies by SIGKILL mid-indexing.
  ai.embeddingDelayMs = 60_000;
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "../harness/run-jobs-child.ts")], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "inherit",
  });
  const seen = () => ai.calls.filter((c) => c.path === "/v1/embeddings").length;
  for (let i = 0; i < 200 && seen() === 0; i++) await Bun.sleep(50);
  expect(seen()).toBeGreaterThan(0);
  child.kill("SIGKILL");
  await child.exited;
  ai.embeddingDelayMs = 0;

  s = await startTestServer({ env });
  try {
    const tenantDb = s.platform.tenantDbs.get(t.id).sqlite;
    expect(tenantDb.query("SELECT status FROM kb_documents").get()).toEqual({ status: "INDEXING" });
    // Without recovery the dead process's lock would hold the job for minutes.
    expect(await s.platform.ports.serviceJobs.runDue()).toBe(0);
    expect(s.platform.ports.serviceJobs.recover()).toBe(1);
    await drainJobs(s);
    expect(tenantDb.query("SELECT status, chunks_done, chunks_total FROM kb_documents").get()).toEqual({
      status: "INDEXED",
      chunks_done: 40,
      chunks_total: 40,
    });
    expect(tenantDb.query("SELECT COUNT(*) n FROM kb_chunks").get()).toEqual({ n: 40 });
    expect(tenantDb.query("SELECT COUNT(*) n FROM kb_fts").get()).toEqual({ n: 40 });
    expect(tenantDb.query("SELECT COUNT(*) n FROM kb_vec_384").get()).toEqual({ n: 40 });
  } finally {
    await s.platform.stop();
  }
}, 60_000);
