import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../harness/server";
import { createTenant, saTenantToken } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { webhookEventsOf } from "../../app/runtime/kernel/webhook-events";

const CASE = readFileSync(join(import.meta.dir, "../fixtures/cmmn/review-case.cmmn"), "utf8");
let s: TestServer;
let admin: string;

beforeAll(async () => {
  s = await startTestServer();
  const t = await createTenant(s, "case-hooks");
  admin = await saTenantToken(s, t);
  await deployBpmn(s, admin, CASE, "review.cmmn");
});
afterAll(() => s.close());

test("completing a case's human task emits task.completed with the task as the REST API shows it", async () => {
  const events: { type: string; data: { id?: string; state?: string } }[] = [];
  const kernel = s.platform.kernel;
  const off = kernel.writeHooks.add((c) => {
    for (const e of webhookEventsOf(c)) events.push(e as (typeof events)[number]);
  });
  try {
    const started = await startProcess(s, admin, { definitionKey: "reviewCase" });
    const task = started.activeTasks[0].id;
    expect(events.filter((e) => e.type === "task.completed")).toEqual([]);
    expect((await s.req("POST", `/api/a/tasks/${task}/claim`, { token: admin })).status).toBe(200);
    const res = await s.req("POST", `/api/a/tasks/${task}/complete`, { token: admin, json: { variables: {} } });
    expect(res.status).toBe(200);
    const completed = events.filter((e) => e.type === "task.completed");
    expect(completed).toHaveLength(1);
    expect(completed[0].data).toMatchObject({ id: task, state: "COMPLETED" });
  } finally {
    off();
  }
});
