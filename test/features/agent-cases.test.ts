import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { type AgentWorld, createAgent, planItemsOf, startAgentWorld, workerCase } from "../harness/agents";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
  await createAgent(w.s, w.tok.MODELER, {
    key: "caseworker",
    name: "Case worker",
    outputVariables: [{ name: "verdict", type: "string" }],
  });
  await deployBpmn(w.s, w.tok.MODELER, workerCase("claimAi", `pms:agent="caseworker"`), "claim.cmmn");
});
afterAll(() => w.stop());

const stepOf = async (token: string, caseId: string) =>
  (await planItemsOf(w.s, token, caseId)).find((p) => p.elementId === "piStep");
const caseVars = async (id: string) =>
  ((await (await w.s.req("GET", `/api/a/instances/${id}`, { token: w.tok.ADMIN })).json()) as { variables: object })
    .variables;
const runJobs = () => w.s.platform.caseRuntime.runDueTimers();

describe("agent steps in cases", () => {
  test("at the case start the agent runs inline: its outputs are case variables and the case moves on", async () => {
    w.scriptFor("caseworker", { content: '{"verdict": "approve"}' });
    const c = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "claimAi", businessKey: "case-ok" });
    expect(c.type).toBe("CMMN");
    expect(c.activeTasks.map((t) => t.activityId)).toEqual(["piAfter"]);
    expect(await caseVars(c.id)).toMatchObject({ verdict: "approve" });
    expect(await stepOf(w.tok.ADMIN, c.id)).toBeUndefined();
  });

  test("a failing step leaves the case open; reactivating runs it again as a job: attemptCount grows, one notification", async () => {
    w.scriptFor("caseworker", { status: 503 });
    const c = await startProcess(w.s, w.tok.USER, { definitionKey: "claimAi", businessKey: "case-fail" });
    expect(c.ended).toBe(false);
    expect(c.activeTasks).toEqual([]);
    const step = (await stepOf(w.tok.USER, c.id))!;
    expect(step).toMatchObject({ state: "FAILED", actions: ["REACTIVATE"] });
    const rows = await w.failures(w.tok.USER, "?businessKey=case-fail");
    expect(rows.content).toHaveLength(1);
    expect(rows.content[0]).toMatchObject({
      engine: "CMMN",
      processKey: "claimAi",
      instanceId: c.id,
      activity: "piStep",
      agentKey: "caseworker",
      failureType: "MODEL_UNAVAILABLE",
      attemptCount: 1,
    });
    expect(await w.aiFailedCount(w.tok.USER)).toBe(1);
    const monitor = (await (
      await w.s.req("GET", "/api/a/definitions/claimAi/monitor", { token: w.tok.MANAGER })
    ).json()) as { activities: { activityId: string; byReason: Record<string, number> }[] };
    expect(monitor.activities.find((a) => a.activityId === "piStep")?.byReason).toMatchObject({ JOB_FAILED: 1 });

    // Run again: the request does not wait on the model, the job does; it fails again.
    w.scriptFor("caseworker", { content: "not JSON" });
    const re = await w.s.req("POST", `/api/a/instances/${c.id}/plan-items/${step.id}/reactivate`, {
      token: w.tok.USER,
    });
    expect(re.status).toBe(200);
    expect(await re.json()).toMatchObject({ id: step.id, state: "ACTIVE", actions: [] });
    // an active agent step is completed by its agent, not by hand
    await expectError(
      await w.s.req("POST", `/api/a/instances/${c.id}/plan-items/${step.id}/trigger`, { token: w.tok.USER }),
      409,
      /AI agent completes it/,
    );
    await expectError(
      await w.s.req("POST", `/api/a/instances/${c.id}/plan-items/${step.id}/reactivate`, { token: w.tok.USER }),
      409,
      /only a failed AI agent step/,
    );
    expect(await runJobs()).toBe(1);
    expect(await stepOf(w.tok.USER, c.id)).toMatchObject({ state: "FAILED" });
    const again = await w.failures(w.tok.USER, "?businessKey=case-fail");
    expect(again.content).toHaveLength(1);
    expect(again.content[0]).toMatchObject({ failureType: "INVALID_OUTPUT", attemptCount: 2 });
    expect(await w.aiFailedCount(w.tok.USER)).toBe(1);

    // Third run succeeds: the step completes, the case goes on to the next task.
    w.scriptFor("caseworker", { content: '{"verdict": "reject"}' });
    expect(
      (await w.s.req("POST", `/api/a/instances/${c.id}/plan-items/${step.id}/reactivate`, { token: w.tok.ADMIN }))
        .status,
    ).toBe(200);
    expect(await runJobs()).toBe(1);
    expect(await stepOf(w.tok.USER, c.id)).toBeUndefined();
    expect(await caseVars(c.id)).toMatchObject({ verdict: "reject" });
    const items = await planItemsOf(w.s, w.tok.USER, c.id);
    expect(items.map((p) => [p.elementId, p.state])).toEqual([["piAfter", "ACTIVE"]]);
  });

  test("reactivate refuses other items (409), another tenant and strangers (404)", async () => {
    w.scriptFor("caseworker", { content: '{"verdict": "ok"}' });
    const ok = await startProcess(w.s, w.tok.USER, { definitionKey: "claimAi" });
    const after = (await planItemsOf(w.s, w.tok.USER, ok.id))[0];
    await expectError(
      await w.s.req("POST", `/api/a/instances/${ok.id}/plan-items/${after.id}/reactivate`, { token: w.tok.USER }),
      409,
      /only a failed AI agent step/,
    );
    w.scriptFor("caseworker", { status: 500 });
    const failed = await startProcess(w.s, w.tok.USER, { definitionKey: "claimAi", businessKey: "case-iso" });
    const step = (await stepOf(w.tok.USER, failed.id))!;
    await expectError(
      await w.s.req("POST", `/api/a/instances/${failed.id}/plan-items/${step.id}/reactivate`, { token: w.tok.OTHER }),
      404,
    );
    // a MODELER who takes no part in the case does not see it
    await expectError(
      await w.s.req("POST", `/api/a/instances/${failed.id}/plan-items/${step.id}/reactivate`, {
        token: w.tok.MODELER,
      }),
      404,
    );
    expect((await w.failures(w.tok.OTHER, "?businessKey=case-iso")).content).toEqual([]);
  });

  test("a case started by an API key writes the failure row and notifies nobody", async () => {
    const before = await w.aiFailedCount(w.tok.ADMIN);
    w.scriptFor("caseworker", { status: 502 });
    const r = await w.s.req("POST", "/api/a/instances", {
      apiKey: w.key,
      json: { definitionKey: "claimAi", businessKey: "case-key" },
    });
    expect(r.status).toBe(201);
    expect((await w.failures(w.tok.ADMIN, "?businessKey=case-key")).content[0]).toMatchObject({
      engine: "CMMN",
      attemptCount: 1,
    });
    expect(await w.aiFailedCount(w.tok.ADMIN)).toBe(before);
  });

  test("a later agent step runs as a job; an attachment row (case key + plan item id) makes a plain task an agent step", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "casetagger",
      name: "Case tagger",
      tools: ["read_variables"],
      outputVariables: [{ name: "tag", type: "string" }],
    });
    await deployBpmn(w.s, w.tok.MODELER, workerCase("tagCase", "", { taskFirst: true }), "tag.cmmn");
    const att = await w.s.req("PUT", "/api/a/agents/casetagger/attachments", {
      token: w.tok.MODELER,
      json: { processKey: "tagCase", activityId: "piStep" },
    });
    expect(att.status).toBe(200);
    const c = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "tagCase" });
    const calls = w.ai.calls.length;
    w.scriptFor(
      "casetagger",
      { toolCalls: [{ name: "read_variables", arguments: {} }] },
      { content: '{"tag": "urgent"}' },
    );
    const done = await w.s.req("POST", `/api/a/tasks/${c.activeTasks[0].id}/complete`, {
      token: w.tok.ADMIN,
      json: { variables: { subject: "boiler broken" } },
    });
    expect(done.status).toBeLessThan(300);
    // the completion did not call the model: the step waits for the job executor
    expect(w.ai.calls.length).toBe(calls);
    expect(await stepOf(w.tok.ADMIN, c.id)).toMatchObject({ state: "ACTIVE", actions: [] });
    expect(await runJobs()).toBe(1);
    expect(await caseVars(c.id)).toMatchObject({ tag: "urgent", subject: "boiler broken" });
    expect((await planItemsOf(w.s, w.tok.ADMIN, c.id)).map((p) => p.elementId)).toEqual(["piAfter"]);
    // the tool read the case's variables; the call is in the case's history
    expect(JSON.stringify(w.ai.calls.at(-1)?.body)).toContain("boiler broken");
    const toolCalls = (await (
      await w.s.req("GET", `/api/a/history/instances/${c.id}/agent-calls`, { token: w.tok.ADMIN })
    ).json()) as { tool: string; outcome: string; activity: string }[];
    expect(toolCalls.map((t) => [t.tool, t.outcome, t.activity])).toEqual([["read_variables", "OK", "piStep"]]);
  });
});
