import { afterAll, beforeAll, expect, test } from "bun:test";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { refundProcess, toolMessages } from "../harness/agent-loop";
import { deployBpmn, startProcess } from "../harness/process";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
});
afterAll(() => w.stop());

const chats = (agent: string) =>
  w.ai.calls.filter(
    (c) =>
      c.path === "/v1/chat/completions" &&
      (c.body.messages as { role: string; content: unknown }[]).some(
        (m) => m.role === "system" && String(m.content).startsWith(`agent ${agent}`),
      ),
  );
const runJobs = async () => {
  for (let i = 0; i < 20 && (await w.s.platform.processRuntime.runDueJobs()) > 0; i++);
};
const get = async (path: string) => {
  const r = await w.s.req("GET", `/api${path}`, { token: w.tok.ADMIN });
  return { status: r.status, body: (await r.json()) as any };
};
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
