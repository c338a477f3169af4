import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeGate } from "../../db/write-gate";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { drainJobs, upload } from "../harness/knowledge";
import { startTestServer, type TestServer } from "../harness/server";

// An upload queues the document's indexing job and writes the document after it. While the checkpointer holds the
// engine's writes both wait; the job executor's poll may wait for the same release. The document must be there when
// the executor claims the job, or the job finds nothing and the document stays PENDING for ever.
let s: TestServer;
let token = "";
let tenantId = "";
beforeAll(async () => {
  s = await startTestServer();
  const sa = await saToken(s);
  const t = await createTenant(s, "kb-held", sa);
  tenantId = t.id;
  token = (await userInTenant(s, t, "MODELER", sa)).token;
});
afterAll(() => s.close());

describe("a knowledge upload while the engine's writes are held", () => {
  test("the document is indexed even when the executor claims its job right at the release", async () => {
    const created = await s.req("POST", "/api/a/knowledge-bases", { token, json: { name: "Held" } });
    expect(created.status).toBe(201);
    const base = (await created.json()) as { id: string };
    // An older due job the executor skips at once (its kind has no handler now): the poll finds work and waits.
    const db = s.platform.engineSqlite;
    db.run(
      `INSERT INTO jobs (id, tenant_id, instance_id, execution_id, definition_id, activity_id, kind, state, due_at, retries, data, created_at)
       VALUES ('older', ?, NULL, NULL, '', 'svc:gone', 'svc:gone', 'EXECUTABLE', 0, 3, '{}', 0)`,
      [tenantId],
    );
    // Known once the upload queues its job, which then waits for the release.
    const jobs = s.platform.ports.serviceJobs;
    const enqueue = jobs.enqueue;
    let reached = () => {};
    const queueing = new Promise<void>((resolve) => (reached = resolve));
    jobs.enqueue = (...args) => {
      reached();
      return enqueue(...args);
    };
    const gate = writeGate(db);
    gate.hold();
    const uploaded = upload(s, token, `/api/a/knowledge-bases/${base.id}/documents`, "notes.txt", "held writes text");
    await queueing;
    jobs.enqueue = enqueue;
    const polled = jobs.runDue();
    gate.release();
    const answer = await uploaded;
    expect(answer.status).toBe(202);
    const { id } = (await answer.json()) as { id: string };
    await polled;
    await drainJobs(s);
    const page = await s.req("GET", `/api/a/knowledge-bases/${base.id}/documents`, { token });
    const docs = ((await page.json()) as { content: { id: string; status: string }[] }).content;
    expect(docs.map((d) => [d.id, d.status])).toEqual([[id, "INDEXED"]]);
  });
});
