import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createTenant, expectError, saToken, userInTenant } from "../harness/fixtures";
import { startFakeOpenAi } from "../harness/openai-server";
import { deployBpmn, startProcess } from "../harness/process";
import { startTestServer } from "../harness/server";
import { type AgentWorld, agentProcess, createAgent, startAgentWorld } from "../harness/agents";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
  await createAgent(w.s, w.tok.MODELER, {
    key: "mapper",
    name: "Mapper",
    outputVariables: [{ name: "ok", type: "boolean" }],
  });
  await deployBpmn(w.s, w.tok.MODELER, agentProcess("mapping", `pms:agent="mapper"`));
  // a short timeout only where a timeout is meant: the first model call also loads the SDK (slow on a busy machine)
  await createAgent(w.s, w.tok.MODELER, {
    key: "sloth",
    name: "Sloth",
    outputVariables: [{ name: "ok", type: "boolean" }],
    limits: { maxToolSteps: 2, timeoutMs: 500 },
  });
  await deployBpmn(w.s, w.tok.MODELER, agentProcess("slow", `pms:agent="sloth"`));
});
afterAll(() => w.stop());

/** Starts `mapping` with a business key: the agent runs inline, so the start answers 422 naming the failure. */
const failingStart = async (businessKey: string, type: RegExp) =>
  expectError(
    await w.s.req("POST", "/api/a/instances", {
      token: w.tok.MODELER,
      json: { definitionKey: "mapping", businessKey },
    }),
    422,
    type,
  );

describe("model errors map to the documented failure types", () => {
  test("a 5xx answer is MODEL_UNAVAILABLE", async () => {
    w.scriptFor("mapper", { status: 500 });
    await failingStart("map-500", /MODEL_UNAVAILABLE/);
    expect((await w.failures(w.tok.MODELER, "?businessKey=map-500")).content[0]).toMatchObject({
      failureType: "MODEL_UNAVAILABLE",
    });
  });

  test("a model slower than the agent's timeout is TIMEOUT", async () => {
    w.scriptFor("sloth", { delayMs: 3000, content: '{"ok": true}' });
    await expectError(
      await w.s.req("POST", "/api/a/instances", {
        token: w.tok.MODELER,
        json: { definitionKey: "slow", businessKey: "map-slow" },
      }),
      422,
      /TIMEOUT/,
    );
    expect((await w.failures(w.tok.MODELER, "?businessKey=map-slow")).content[0]).toMatchObject({
      failureType: "TIMEOUT",
    });
  });

  test("the provider's quota (429 insufficient_quota) is QUOTA_EXCEEDED; a plain rate limit is MODEL_UNAVAILABLE", async () => {
    w.scriptFor("mapper", {
      status: 429,
      error: { code: "insufficient_quota", message: "You exceeded your current quota" },
    });
    await failingStart("map-quota", /QUOTA_EXCEEDED/);
    w.scriptFor("mapper", { status: 429, error: { code: "rate_limit_exceeded", message: "Rate limit reached" } });
    await failingStart("map-rate", /MODEL_UNAVAILABLE/);
  });

  test("the tenant's exhausted AI quota is QUOTA_EXCEEDED, and the model is not called", async () => {
    await createAgent(w.s, w.tok.OTHER, { key: "mapper", name: "Their mapper", outputVariables: [] });
    await deployBpmn(w.s, w.tok.OTHER, agentProcess("theirMapping", `pms:agent="mapper"`));
    const sa = await saToken(w.s);
    const quota = (n: number | null) =>
      w.s.req("PUT", `/api/admin/tenants/${w.otherTenantId}/ai-quota`, { token: sa, json: { monthlyTokens: n } });
    expect((await quota(0)).status).toBe(200);
    const calls = w.ai.calls.length;
    await expectError(
      await w.s.req("POST", "/api/a/instances", {
        token: w.tok.OTHER,
        json: { definitionKey: "theirMapping", businessKey: "their-quota" },
      }),
      422,
      /QUOTA_EXCEEDED/,
    );
    expect(w.ai.calls.length).toBe(calls);
    expect((await w.failures(w.tok.OTHER, "?businessKey=their-quota")).content[0]).toMatchObject({
      failureType: "QUOTA_EXCEEDED",
    });
    expect((await quota(null)).status).toBe(200);
  });

  test("an endpoint that is down (connection refused) is MODEL_UNAVAILABLE", async () => {
    const gone = startFakeOpenAi();
    gone.stop();
    const s = await startTestServer({ env: { AI_BASE_URL: gone.url, AI_MODEL: "fake-chat" } });
    try {
      const t = await createTenant(s, "agents-down");
      const modeler = (await userInTenant(s, t, "MODELER")).token;
      await createAgent(s, modeler, { key: "lonely", name: "Lonely", outputVariables: [] });
      await deployBpmn(s, modeler, agentProcess("downP", `pms:agent="lonely"`));
      await expectError(
        await s.req("POST", "/api/a/instances", { token: modeler, json: { definitionKey: "downP", businessKey: "d" } }),
        422,
        /MODEL_UNAVAILABLE/,
      );
    } finally {
      await s.close();
    }
  });
});

describe("an agent of a process runs only there", () => {
  test("attaching it to another process is 409; a model naming it elsewhere fails with AGENT_NOT_IN_PROCESS", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "scoped",
      name: "Scoped",
      processKey: "home",
      outputVariables: [{ name: "ok", type: "boolean" }],
    });
    await expectError(
      await w.s.req("PUT", "/api/a/agents/scoped/attachments", {
        token: w.tok.MODELER,
        json: { processKey: "elsewhere", activityId: "step" },
      }),
      409,
      /belongs to process home/,
    );
    const home = await w.s.req("PUT", "/api/a/agents/scoped/attachments", {
      token: w.tok.MODELER,
      json: { processKey: "home", activityId: "step" },
    });
    expect(home.status).toBe(200);
    // a process-less agent attaches anywhere
    expect(
      (
        await w.s.req("PUT", "/api/a/agents/mapper/attachments", {
          token: w.tok.MODELER,
          json: { processKey: "elsewhere", activityId: "step" },
        })
      ).status,
    ).toBe(200);
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("intruder", `pms:agent="scoped"`));
    await expectError(
      await w.s.req("POST", "/api/a/instances", {
        token: w.tok.MODELER,
        json: { definitionKey: "intruder", businessKey: "intr" },
      }),
      422,
      /AGENT_NOT_IN_PROCESS/,
    );
    expect((await w.failures(w.tok.MODELER, "?businessKey=intr")).content[0]).toMatchObject({
      failureType: "AGENT_NOT_IN_PROCESS",
    });
    // in its own process it runs
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("home", `pms:agent="scoped"`));
    w.scriptFor("scoped", { content: '{"ok": true}' });
    const ok = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "home" });
    expect(ok.activeTasks.map((t) => t.activityId)).toEqual(["after"]);
  });
});

describe("a failing agent job (spec: Instances rules 2 and 3)", () => {
  test("retries with the job retry rule, reaches the dead letter, keeps its failure row; the API neither retries nor dead-letters it", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "late",
      name: "Late",
      outputVariables: [{ name: "ok", type: "boolean" }],
    });
    await deployBpmn(
      w.s,
      w.tok.MODELER,
      agentProcess("lateP", `pms:agent="late" flowable:failedJobRetryTimeCycle="R2/PT5S"`, { taskFirst: true }),
    );
    const inst = await startProcess(w.s, w.tok.USER, { definitionKey: "lateP", businessKey: "late-1" });
    const notified = await w.aiFailedCount(w.tok.USER);
    w.scriptFor("late", { status: 503 }, { status: 503 });
    const [before] = (await (
      await w.s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: w.tok.ADMIN })
    ).json()) as { id: string }[];
    const done = await w.s.req("POST", `/api/a/tasks/${before.id}/complete`, {
      token: w.tok.ADMIN,
      json: {},
    });
    expect(done.status).toBeLessThan(300);
    const rt = w.s.platform.processRuntime;
    await rt.runDueJobs();
    type Failed = { id: string; instanceId: string; state: string; retries: number; exception: string };
    const failedJobs = async () =>
      (
        (await (await w.s.req("GET", "/api/a/instances/failed-jobs", { token: w.tok.MANAGER })).json()) as Failed[]
      ).filter((j) => j.instanceId === inst.id);
    const [retrying] = await failedJobs();
    expect(retrying).toMatchObject({ state: "EXECUTABLE", retries: 1 });
    expect(retrying.exception).toMatch(/MODEL_UNAVAILABLE/);
    expect((await w.failures(w.tok.USER, "?businessKey=late-1")).content[0]).toMatchObject({ attemptCount: 1 });
    // the API has no retry and no dead-letter for AI failures (409), also while it still retries by itself
    for (const op of ["retry", "deadletter"])
      await expectError(
        await w.s.req("POST", `/api/a/instances/failed-jobs/${retrying.id}/${op}`, { token: w.tok.MANAGER }),
        409,
        /AI failures have no/,
      );
    w.s.clock.advance(5_001);
    await rt.runDueJobs();
    const [dead] = await failedJobs();
    expect(dead).toMatchObject({ id: retrying.id, state: "DEADLETTER", retries: 0 });
    const row = (await w.failures(w.tok.USER, "?businessKey=late-1")).content[0];
    expect(row).toMatchObject({ engine: "BPMN", activity: "step", attemptCount: 2 });
    expect(await w.aiFailedCount(w.tok.USER)).toBe(notified + 1);
    const monitor = (await (
      await w.s.req("GET", "/api/a/definitions/lateP/monitor", { token: w.tok.MANAGER })
    ).json()) as { activities: { activityId: string; byReason: Record<string, number> }[] };
    expect(monitor.activities.find((a) => a.activityId === "step")?.byReason).toMatchObject({ JOB_FAILED: 1 });
    await expectError(
      await w.s.req("POST", `/api/a/instances/failed-jobs/${dead.id}/retry`, { token: w.tok.MANAGER }),
      409,
      /reprocessing means submitting the document again/,
    );
    // the instance stays at the step until a Manager cancels it; nothing ran again
    await rt.runDueJobs();
    expect((await w.failures(w.tok.USER, "?businessKey=late-1")).content[0]).toMatchObject({ attemptCount: 2 });
  });
});
