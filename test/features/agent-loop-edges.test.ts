import { afterAll, beforeAll, expect, test } from "bun:test";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { chatsOf, getJson, refundProcess, runDueJobs, toolMessages } from "../harness/agent-loop";
import { deployBpmn, startProcess } from "../harness/process";
import { saToken } from "../harness/fixtures";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
});
afterAll(() => w.stop());

const chats = (agent: string) => chatsOf(w, agent);
const runJobs = () => runDueJobs(w);
const get = (path: string, token = w.tok.ADMIN) => getJson(w, path, token);
async function loopOf(key: string, xml: string, ...script: Parameters<AgentWorld["scriptFor"]>[1][]) {
  await createAgent(w.s, w.tok.MODELER, { key, name: key, tools: [], outputVariables: [] });
  await deployBpmn(w.s, w.tok.MODELER, xml);
  w.scriptFor(key, ...script);
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: `${key}-p` });
  await runJobs();
  return inst;
}

test("a sequential ad-hoc subprocess runs one called activity at a time: the others are refused and told", async () => {
  const xml = refundProcess("seq-p", "seq").replace('pms:agent="seq"', 'pms:agent="seq" ordering="Sequential"');
  const inst = await loopOf(
    "seq",
    xml,
    {
      toolCalls: [
        { name: "lookup_order", arguments: { orderId: "S1" } },
        { name: "lookup_order", arguments: { orderId: "S2" } },
      ],
    },
    { content: "one was enough" },
  );
  const told = toolMessages(chats("seq")[1].body).map((m) => String(m.content));
  expect(told.some((t) => /one activity at a time/.test(t))).toBe(true);
  expect(told.some((t) => t.includes("order S1 of 40 EUR"))).toBe(true);
  const acts = (await get(`/a/history/instances/${inst.id}/activities`)).body as any[];
  expect(acts.filter((a) => a.activityId === "lookup_order").length).toBe(1);
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as any[];
  expect(calls.map((c) => [c.tool, c.outcome])).toContainEqual(["lookup_order", "REFUSED"]);
});

test("cancelling an instance whose loop waits for a person ends it: no turn is left to run", async () => {
  const inst = await loopOf("cancelled", refundProcess("cancelled-p", "cancelled"), {
    toolCalls: [{ name: "ask_person", arguments: { question: "Still there?" } }],
  });
  const r = await w.s.req("DELETE", `/api/a/instances/${inst.id}`, { token: w.tok.ADMIN });
  expect(r.status).toBe(200);
  await runJobs();
  expect(chats("cancelled").length).toBe(1);
  const jobs = (await get(`/a/instances/${inst.id}/jobs`)).body;
  expect(Array.isArray(jobs) ? jobs : (jobs.content ?? [])).toEqual([]);
  const conv = (await get(`/a/history/instances/${inst.id}/agent-conversation`)).body;
  expect(conv[0]).toMatchObject({ state: "ENDED", waiting: [] });
});

test("a call activity chosen as a tool runs its process; what it maps out is the result", async () => {
  await deployBpmn(
    w.s,
    w.tok.MODELER,
    `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn" targetNamespace="t">
  <process id="child-p" isExecutable="true">
    <startEvent id="s"/><serviceTask id="answer" flowable:expression="\${'about ' + topic}" flowable:resultVariable="answer"/>
    <endEvent id="e"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="answer"/><sequenceFlow id="f2" sourceRef="answer" targetRef="e"/>
  </process>
</definitions>`,
    "child.bpmn",
  );
  const call = `<callActivity id="ask_child" name="Ask the child process" calledElement="child-p">
    <extensionElements>
      <flowable:in source="topic" target="topic"/><flowable:out source="answer" target="answer"/>
      <pms:inputOutput><pms:inputParameter name="topic">fromAi(toolCall.topic, "what about")</pms:inputParameter></pms:inputOutput>
    </extensionElements></callActivity>`;
  const inst = await loopOf(
    "caller",
    refundProcess("caller-p", "caller", call),
    { toolCalls: [{ name: "ask_child", arguments: { topic: "refunds" } }] },
    { content: "thanks" },
  );
  expect(chats("caller").length).toBe(2);
  expect(JSON.parse(String(toolMessages(chats("caller")[1].body)[0].content))).toEqual({ answer: "about refunds" });
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["after"]);
});

test("the tenant's exhausted AI quota fails the loop's turn as QUOTA_EXCEEDED without calling the model", async () => {
  await createAgent(w.s, w.tok.OTHER, { key: "quoted", name: "Quoted", tools: [], outputVariables: [] });
  await deployBpmn(w.s, w.tok.OTHER, refundProcess("quoted-p", "quoted"));
  const sa = await saToken(w.s);
  const quota = (n: number | null) =>
    w.s.req("PUT", `/api/admin/tenants/${w.otherTenantId}/ai-quota`, { token: sa, json: { monthlyTokens: n } });
  expect((await quota(0)).status).toBe(200);
  const before = w.ai.calls.length;
  await startProcess(w.s, w.tok.OTHER, { definitionKey: "quoted-p", businessKey: "quoted-1" });
  await runJobs();
  expect(w.ai.calls.length).toBe(before);
  expect((await w.failures(w.tok.OTHER, "?businessKey=quoted-1")).content[0]).toMatchObject({
    failureType: "QUOTA_EXCEEDED",
    activity: "handle",
  });
  expect((await quota(null)).status).toBe(200);
});

test("the agent's own tools run in the loop at its clearance: a SECRET collection is refused and told to the model", async () => {
  const col = await w.s.req("POST", "/api/a/cms/collections", {
    token: w.tok.ADMIN,
    json: { name: "payroll", confidentiality: "SECRET", fields: [{ name: "who", type: "text" }] },
  });
  expect(col.status).toBe(201);
  await createAgent(w.s, w.tok.MODELER, { key: "peeker", name: "Peeker", tools: ["cms_query"], outputVariables: [] });
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("peeker-p", "peeker"));
  w.scriptFor(
    "peeker",
    { toolCalls: [{ name: "cms_query", arguments: { collection: "payroll" } }] },
    { content: "could not read it" },
  );
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "peeker-p" });
  await runJobs();
  // one turn, the model asked twice (the refusal answered within it)
  expect(chats("peeker").length).toBe(2);
  expect(String(toolMessages(chats("peeker")[1].body)[0].content)).toMatch(/SECRET/);
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as any[];
  // the model's call first, then the tool it asked for (recorded with the step, in its transaction)
  expect(calls.map((c) => [c.tool, c.outcome, c.turn])).toEqual([
    ["model", "OK", 0],
    ["cms_query", "REFUSED", 0],
    ["model", "OK", 0],
  ]);
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["after"]);
});

test("a tool activity interrupted by a boundary event is told to the model; the loop goes on", async () => {
  const late = `<boundaryEvent id="late" attachedToRef="ask_person"><timerEventDefinition><timeDuration>PT5M</timeDuration></timerEventDefinition></boundaryEvent>`;
  const inst = await loopOf(
    "late",
    refundProcess("late-p", "late", late),
    { toolCalls: [{ name: "ask_person", arguments: { question: "Anyone?" } }] },
    { content: "nobody answered" },
  );
  expect(chats("late").length).toBe(1);
  w.s.clock.advance(6 * 60_000);
  await runJobs();
  expect(chats("late").length).toBe(2);
  expect(String(toolMessages(chats("late")[1].body)[0].content)).toMatch(/interrupted by 'late'/);
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["after"]);
});
