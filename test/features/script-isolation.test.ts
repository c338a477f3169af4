import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { scriptPool } from "../../app/runtime/scripting/js-sandbox";
import { perTenantShare, SCRIPT_LIMITS } from "../../app/runtime/scripting/script-limits";
import { createTenant, expectError, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";
import { startTestServer, type TestServer } from "../harness/server";

// Issue 28, part 1: model JavaScript runs in killable workers, bounded in time, memory and the size of what it writes,
// and one tenant's hostile scripts neither stall the service nor take every worker.
let s: TestServer;
let a: string;
let b: string;
const pool = () => scriptPool(s.platform.config.scriptWorkers);

const model = (key: string, script: string, async = false) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" targetNamespace="t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="js"/>
    <scriptTask id="js" scriptFormat="javascript" camunda:resultVariable="out"${async ? ` camunda:asyncBefore="true"` : ""}><script><![CDATA[${script}]]></script></scriptTask>
    <sequenceFlow id="f1" sourceRef="js" targetRef="u"/><userTask id="u"/>
  </process>
</definitions>`;

// Native calls the interrupt handler never reaches: far past any deadline (about 5 ms a call here).
const NATIVE_LOOP = `for (let i=0;i<20000;i++) "x".repeat(1e6); 1`;
const MEMORY_BOMB = `let a=[]; while(true){ a.push("x".repeat(1e6)); }`;

const start = (token: string, definitionKey: string, variables: Record<string, unknown> = {}) =>
  s.req("POST", "/api/a/instances", { token, json: { definitionKey, variables } });
const instancesOf = async (token: string, key: string) => {
  const page = (await (await s.req("GET", "/api/a/instances?size=100", { token })).json()) as {
    content: { definitionKey: string }[];
  };
  return page.content.filter((i) => i.definitionKey === key);
};

beforeAll(async () => {
  s = await startTestServer();
  a = (await userInTenant(s, await createTenant(s, "scripts-a"), "ADMIN")).token;
  b = (await userInTenant(s, await createTenant(s, "scripts-b"), "ADMIN")).token;
  await deployBpmn(s, a, model("native", NATIVE_LOOP), "native.bpmn");
  await deployBpmn(s, a, model("bomb", MEMORY_BOMB), "bomb.bpmn");
  await deployBpmn(s, a, model("bombJob", MEMORY_BOMB, true), "bomb-job.bpmn");
  await deployBpmn(
    s,
    a,
    model("ok", "execution.setVariable('twice', execution.getVariable('n') * 2); 'done'"),
    "a.bpmn",
  );
  await deployBpmn(
    s,
    b,
    model("ok", "execution.setVariable('twice', execution.getVariable('n') * 2); 'done'"),
    "b.bpmn",
  );
  // The pool starts its workers on first use: once started, the counters below see only what a test does.
  expect((await start(a, "ok", { n: 0 })).status).toBe(201);
}, 30_000);
afterAll(() => s.close());

describe("model JavaScript in killable workers", () => {
  test("native calls past the deadline: the worker is terminated (422 naming the limit), replaced, and the next script runs", async () => {
    const before = pool().stats();
    await expectError(await start(a, "native"), 422, /time limit of 1000 ms \(wall clock\)/);
    expect(pool().stats().killed).toBe(before.killed + 1);
    expect(pool().stats().started).toBe(before.started + 1);
    expect(await instancesOf(a, "native")).toHaveLength(0);
    // The replacement serves the next script.
    const ok = await start(a, "ok", { n: 21 });
    expect(ok.status).toBe(201);
    const { id } = (await ok.json()) as { id: string };
    const detail = (await (await s.req("GET", `/api/a/instances/${id}`, { token: a })).json()) as {
      variables: Record<string, unknown>;
    };
    expect(detail.variables).toMatchObject({ n: 21, twice: 42, out: "done" });
    // The pool's counters are on /metrics.
    const metrics = await (await s.req("GET", "/metrics")).text();
    expect(metrics).toMatch(new RegExp(`script_pool\\{what="killed"\\} ${pool().stats().killed}\\b`));
  });

  test("an allocation bomb is refused with 422 naming a limit; the worker that grew is replaced, nothing is written", async () => {
    const before = pool().stats();
    await expectError(await start(a, "bomb"), 422, /memory limit of 16 MiB|time limit of 1000 ms/);
    const after = pool().stats();
    // Its WebAssembly memory grew past the recycle bound (or it was killed at the deadline): either way a fresh worker.
    expect(after.recycled + after.killed).toBe(before.recycled + before.killed + 1);
    expect(after.started).toBe(before.started + 1);
    expect(await instancesOf(a, "bomb")).toHaveLength(0);
    expect((await start(a, "ok", { n: 1 })).status).toBe(201);
  });

  test("the same bomb in an async step fails its job with the limit named", async () => {
    const started = await start(a, "bombJob");
    expect(started.status).toBe(201);
    const { id } = (await started.json()) as { id: string };
    await s.platform.processRuntime.runDueJobs();
    const failed = (await (await s.req("GET", "/api/a/instances/failed-jobs", { token: a })).json()) as {
      instanceId: string;
      exception: string;
    }[];
    const job = failed.find((j) => j.instanceId === id);
    expect(job?.exception).toMatch(
      /JavaScript script at 'js' failed: .*(memory limit of 16 MiB|time limit of 1000 ms)/,
    );
  });

  test("/health and another tenant's start are served while tenant A's hostile scripts run; A never holds every worker", async () => {
    const workers = s.platform.config.scriptWorkers;
    expect(workers).toBeGreaterThan(1);
    let settled = 0;
    const hostile = [0, 1, 2].map(() =>
      start(a, "native").then((r) => {
        settled++;
        return r;
      }),
    );
    // Wait (by state, not time) until A's first script runs in a worker.
    while (pool().stats().busy === 0) await Bun.sleep(5);
    const during = pool().stats();
    expect(during.busy).toBeLessThanOrEqual(perTenantShare(workers));
    const health = await s.req("GET", "/health");
    expect(health.status).toBe(200);
    const other = await start(b, "ok", { n: 2 });
    expect(other.status).toBe(201);
    // Both answered while A's scripts were still running or waiting for their worker.
    expect(settled).toBeLessThan(hostile.length);
    for (const r of await Promise.all(hostile)) await expectError(r, 422, /time limit of 1000 ms/);
  }, 30_000);
});

describe("values a script writes obey the variable size limit (1 MiB)", () => {
  test("a 10 MiB variable: 422 naming the limit, nothing written", async () => {
    await deployBpmn(s, a, model("big", `execution.setVariable("big","x".repeat(10*1024*1024))`), "big.bpmn");
    await expectError(await start(a, "big"), 422, /'big' is larger than the limit of 1 MiB for one variable/);
    expect(await instancesOf(a, "big")).toHaveLength(0);
  });

  test("a refused write fails the script even when the script catches the error", async () => {
    const src = `try { execution.setVariable("big","x".repeat(2*1024*1024)); } catch (e) {} 1`;
    await deployBpmn(s, a, model("caught", src), "caught.bpmn");
    await expectError(await start(a, "caught"), 422, /larger than the limit of 1 MiB/);
    expect(await instancesOf(a, "caught")).toHaveLength(0);
  });

  test("a result over 1 MiB is refused; a value under the limit is written", async () => {
    await deployBpmn(s, a, model("bigResult", `"x".repeat(10*1024*1024)`), "big-result.bpmn");
    await expectError(await start(a, "bigResult"), 422, /the value of the script is larger than the limit of 1 MiB/);
    await deployBpmn(s, a, model("fits", `execution.setVariable("v","y".repeat(900*1024)); 1`), "fits.bpmn");
    const ok = await start(a, "fits");
    expect(ok.status).toBe(201);
    expect(SCRIPT_LIMITS.valueBytes).toBe(1024 * 1024);
  });
});
