import { afterAll, beforeAll, expect, test } from "bun:test";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { chatsOf, getJson, publishDiscount, refundProcess, runDueJobs, toolMessages } from "../harness/agent-loop";
import { deployBpmn, startProcess } from "../harness/process";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
  await publishDiscount(w.s, w.tok.MODELER);
});
afterAll(() => w.stop());

const chats = (agent: string) => chatsOf(w, agent);
const runJobs = () => runDueJobs(w);
const get = (path: string, token = w.tok.ADMIN) => getJson(w, path, token);

/** An agent `key` with `limits`, its loop process deployed as `key`-p, and an instance started. */
async function loop(key: string, limits: Record<string, number>, ...script: Parameters<AgentWorld["scriptFor"]>[1][]) {
  await createAgent(w.s, w.tok.MODELER, {
    key,
    name: key,
    tools: ["set_output"],
    outputVariables: [{ name: "decision", type: "string" }],
    limits,
  });
  await deployBpmn(w.s, w.tok.MODELER, refundProcess(`${key}-p`, key));
  w.scriptFor(key, ...script);
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: `${key}-p`, businessKey: key });
  await runJobs();
  return inst;
}
const failureOf = async (bk: string) => (await w.failures(w.tok.ADMIN, `?businessKey=${bk}`)).content[0];

test("a tool activity that fails past its job's retries is told to the model as a failed call; the loop goes on", async () => {
  const inst = await loop(
    "failing",
    {},
    { toolCalls: [{ name: "discount_for", arguments: { customerType: "SILVER", amount: 9000 } }] },
    { content: '{"decision": "no discount"}' },
  );
  const told = toolMessages(chats("failing")[1].body);
  expect(String(told[0].content)).toMatch(/Decision 'discount' failed/);
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["after"]);
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as any[];
  expect(calls.find((c) => c.tool === "discount_for")).toMatchObject({ outcome: "ERROR" });
  expect(calls.find((c) => c.tool === "discount_for").detail).toMatch(/Decision 'discount' failed/);
  // nothing is left dead-lettered: the failure went to the model
  const failed = (await get("/a/instances/failed-jobs")).body as any[];
  expect(failed.filter((j) => j.instanceId === inst.id)).toEqual([]);
});

test("a tool activity whose job fails is retried by the job rules, then told to the model as a failed call", async () => {
  await createAgent(w.s, w.tok.MODELER, { key: "retrier", name: "retrier", tools: [], outputVariables: [] });
  const flaky = `<serviceTask id="flaky" name="Flaky" flowable:expression="\${'x' - 1}"/>`;
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("retrier-p", "retrier", flaky));
  w.scriptFor("retrier", { toolCalls: [{ name: "flaky", arguments: {} }] }, { content: "gave up" });
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "retrier-p" });
  await runJobs();
  const jobOf = async () =>
    ((await get("/a/instances/failed-jobs")).body as any[]).find((j) => j.instanceId === inst.id);
  expect(await jobOf()).toMatchObject({ activityId: "flaky", retries: 2 });
  for (const left of [1]) {
    w.s.clock.advance(11_000);
    await runJobs();
    expect(await jobOf()).toMatchObject({ activityId: "flaky", retries: left });
  }
  expect(chats("retrier").length).toBe(1);
  w.s.clock.advance(11_000);
  await runJobs();
  // the last try failed too: the model heard of it, and the loop ended
  expect(chats("retrier").length).toBe(2);
  expect(String(toolMessages(chats("retrier")[1].body)[0].content)).toMatch(/cannot coerce 'x' to a number/);
  expect(await jobOf()).toBeUndefined();
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["after"]);
});

test("a call the agent may not make (a tool it was not offered, arguments of the wrong type) is refused and told to the model", async () => {
  const inst = await loop(
    "refused",
    {},
    {
      toolCalls: [
        { name: "cms_query", arguments: { collection: "customers" } },
        { name: "lookup_order", arguments: { orderId: 5 } },
      ],
    },
    { content: '{"decision": "asked nothing"}' },
  );
  // both refusals reached the model in the same turn, which was asked again; nothing ran
  expect(chats("refused").length).toBe(2);
  const told = toolMessages(chats("refused")[1].body).map((m) => String(m.content));
  expect(told.length).toBe(2);
  expect(told.join(" ")).toMatch(/cms_query/);
  expect(told.join(" ")).toMatch(/argument 'orderId' must be of type string/);
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as any[];
  expect(calls.map((c) => [c.tool, c.outcome])).toEqual([
    ["model", "OK"],
    ["cms_query", "REFUSED"],
    ["lookup_order", "REFUSED"],
    ["model", "OK"],
  ]);
  expect((await get(`/a/history/instances/${inst.id}`)).body.variables).toMatchObject({ decision: "asked nothing" });
  const acts = (await get(`/a/history/instances/${inst.id}/activities`)).body as any[];
  expect(acts.some((a) => a.activityId === "lookup_order")).toBe(false);
});

test("the loop's model calls are limited: the next turn past the limit fails as MODEL_CALLS_EXCEEDED", async () => {
  const inst = await loop(
    "calls-capped",
    { maxModelCalls: 1 },
    {
      toolCalls: [{ name: "lookup_order", arguments: { orderId: "B2" } }],
    },
  );
  expect(chats("calls-capped").length).toBe(1);
  const f = await failureOf("calls-capped");
  expect(f).toMatchObject({ failureType: "MODEL_CALLS_EXCEEDED", activity: "handle", instanceId: inst.id });
  const failed = (await get("/a/instances/failed-jobs")).body as any[];
  expect(failed.find((j) => j.instanceId === inst.id)).toMatchObject({ activityId: "handle" });
});

test("the loop's tool calls are limited: asking more than the limit fails as TOOL_CALLS_EXCEEDED", async () => {
  await loop(
    "tools-capped",
    { maxToolCalls: 1 },
    {
      toolCalls: [
        { name: "lookup_order", arguments: { orderId: "C3" } },
        { name: "lookup_order", arguments: { orderId: "C4" } },
      ],
    },
  );
  expect((await failureOf("tools-capped")).failureType).toBe("TOOL_CALLS_EXCEEDED");
});

test("the loop's tokens are limited: a turn past them fails as TOKENS_EXCEEDED", async () => {
  await loop("tokens-capped", { maxTokens: 5 }, { toolCalls: [{ name: "lookup_order", arguments: { orderId: "D" } }] });
  expect((await failureOf("tokens-capped")).failureType).toBe("TOKENS_EXCEEDED");
});

test("the loop's wall time is limited, waits for people included: the turn after it fails as TIMEOUT", async () => {
  const inst = await loop(
    "slow-person",
    { maxWallMs: 60_000 },
    {
      toolCalls: [{ name: "ask_person", arguments: { question: "ok?" } }],
    },
  );
  const task = (await get(`/a/tasks?instanceId=${inst.id}`)).body[0];
  w.s.clock.advance(120_000);
  await w.s.req("POST", `/api/a/tasks/${task.id}/claim`, { token: w.tok.ADMIN, json: {} });
  const done = await w.s.req("POST", `/api/a/tasks/${task.id}/complete`, { token: w.tok.ADMIN, json: {} });
  expect(done.status).toBe(200);
  await runJobs();
  expect(chats("slow-person").length).toBe(1);
  expect((await failureOf("slow-person")).failureType).toBe("TIMEOUT");
});

test("a loop still waiting for a person when its wall time ends fails then as TIMEOUT, without the person", async () => {
  const inst = await loop(
    "no-answer",
    { maxWallMs: 60_000 },
    {
      toolCalls: [{ name: "ask_person", arguments: { question: "hello?" } }],
    },
  );
  expect((await failureOf("no-answer")) ?? null).toBeNull();
  w.s.clock.advance(30_000);
  await runJobs();
  expect((await failureOf("no-answer")) ?? null).toBeNull();
  w.s.clock.advance(31_000);
  await runJobs();
  const f = await failureOf("no-answer");
  expect(f).toMatchObject({ failureType: "TIMEOUT", activity: "handle", instanceId: inst.id });
  expect(f.reason).toMatch(/while waiting for ask_person/);
  expect(chats("no-answer").length).toBe(1);
  // the person's task is still open: the loop's failure is its job's, as for any AI task
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["ask_person"]);
});

test("another tenant cannot see an instance's agent loop (404)", async () => {
  const inst = await loop("private", {}, { content: '{"decision": "nothing to do"}' });
  expect((await get(`/a/history/instances/${inst.id}/agent-calls`)).status).toBe(200);
  expect((await get(`/a/history/instances/${inst.id}/agent-calls`, w.tok.OTHER)).status).toBe(404);
  expect((await get(`/a/history/instances/${inst.id}/agent-conversation`)).body[0].state).toBe("COMPLETED");
  expect((await get(`/a/history/instances/${inst.id}/agent-conversation`, w.tok.OTHER)).status).toBe(404);
  expect((await get("/a/history/instances/no-such-instance/agent-conversation")).status).toBe(404);
});

test("an agent's loop limits are read back with their defaults; a limit out of bounds is refused naming it", async () => {
  const created = await createAgent(w.s, w.tok.MODELER, {
    key: "bounded",
    name: "Bounded",
    limits: { maxTokens: 1000 },
  });
  expect((created as any).limits).toEqual({
    maxToolSteps: 8,
    timeoutMs: 60_000,
    maxModelCalls: 20,
    maxToolCalls: 30,
    maxTokens: 1000,
    maxWallMs: 7 * 24 * 3600_000,
  });
  const bad = await w.s.req("POST", "/api/a/agents", {
    token: w.tok.MODELER,
    json: { key: "unbounded", name: "x", modelId: "fake-chat", instructions: "x", limits: { maxModelCalls: 0 } },
  });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain("maxModelCalls");
});

test("an agent loop's activity whose id a model API refuses as a tool name is refused at deploy, naming it", async () => {
  const dotted = '<serviceTask id="look.up" name="Look up" flowable:expression="${1}"/>';
  const r = await w.s.req("POST", "/api/a/definitions/validate", {
    token: w.tok.MODELER,
    json: { xml: refundProcess("dotted-p", "dotted", dotted) },
  });
  const body = (await r.json()) as { valid?: boolean; errors?: unknown; message?: string };
  expect(JSON.stringify(body)).toContain("Activity 'look.up' of the agent loop 'handle' cannot be offered to a model");
  // Without the agent (an ordinary ad-hoc subprocess) the same id is fine.
  const plain = await w.s.req("POST", "/api/a/definitions/validate", {
    token: w.tok.MODELER,
    json: { xml: refundProcess("dotted-q", "dotted", dotted).replace(' pms:agent="dotted"', "") },
  });
  expect(JSON.stringify(await plain.json())).not.toContain("cannot be offered to a model");
});
