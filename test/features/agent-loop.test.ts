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

const loopCalls = (agent: string) => chatsOf(w, agent);
const runJobs = () => runDueJobs(w);
const get = (path: string, token = w.tok.ADMIN) => getJson(w, path, token);

test("an agent drives its ad-hoc subprocess: a lookup and a decision at once, then a person, then typed outputs and the flow goes on", async () => {
  await createAgent(w.s, w.tok.MODELER, {
    key: "refunder",
    name: "Refunder",
    tools: ["set_output"],
    outputVariables: [
      { name: "decision", type: "string" },
      { name: "refund", type: "number" },
    ],
  });
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("refunds", "refunder"));
  w.scriptFor(
    "refunder",
    {
      toolCalls: [
        { name: "lookup_order", arguments: { orderId: "A1" } },
        { name: "discount_for", arguments: { customerType: "GOLD", amount: 500 } },
      ],
    },
    { toolCalls: [{ name: "ask_person", arguments: { question: "Refund order A1?" } }] },
    { content: '{"decision": "refund", "refund": "36"}' },
  );
  // A USER starts it: they see their instance, but not what the agent read (see the conversation below).
  const inst = await startProcess(w.s, w.tok.USER, { definitionKey: "refunds", businessKey: "mail-1" });
  expect(inst.activeTasks).toEqual([]);
  await runJobs();
  // The model offered one tool per activity, with the declared parameters, besides the agent's own tools.
  const first = loopCalls("refunder")[0].body as { tools: { function: { name: string; parameters: any } }[] };
  const offered = Object.fromEntries(first.tools.map((t) => [t.function.name, t.function.parameters]));
  expect(Object.keys(offered).sort()).toEqual(["ask_person", "discount_for", "lookup_order", "set_output"]);
  expect(offered.discount_for.properties).toEqual({
    customerType: { type: "string", description: "GOLD or SILVER" },
    amount: { type: "number", description: "the amount" },
  });
  // The person's task is real: its form, its candidates, its due date; the loop waits for it.
  const tasks = await get(`/a/tasks?instanceId=${inst.id}`);
  expect(tasks.body.map((t: any) => t.activityId)).toEqual(["ask_person"]);
  const task = tasks.body[0];
  expect(task.formKey).toBe("approval");
  expect(task.dueDate).toBeTruthy();
  expect(loopCalls("refunder").length).toBe(2);
  // The second turn got both results: the lookup's variable and the decision's.
  const results = toolMessages(loopCalls("refunder")[1].body).map((m) => JSON.parse(String(m.content)));
  expect(results).toContainEqual({ order: "order A1 of 40 EUR" });
  expect(results).toContainEqual({ discount: 0.1 });
  expect(task.candidateGroups).toEqual(["support"]);
  // The conversation so far, and what it waits for: the person's task.
  const waiting = (await get(`/a/history/instances/${inst.id}/agent-conversation`)).body;
  expect(waiting.length).toBe(1);
  expect(waiting[0]).toMatchObject({ subProcessId: "handle", agentKey: "refunder", state: "RUNNING" });
  expect(waiting[0].turns.map((t: any) => t.calls.map((c: any) => c.tool))).toEqual([
    ["lookup_order", "discount_for"],
    ["ask_person"],
  ]);
  expect(waiting[0].waiting).toEqual([
    { callId: expect.any(String), tool: "ask_person", args: { question: "Refund order A1?" }, taskId: task.id },
  ]);
  expect(waiting[0].turns[0].messages.length).toBeGreaterThan(0);
  // The USER who started it gets the conversation's shape: what the agent read at its clearance stays out.
  const shape = (await get(`/a/history/instances/${inst.id}/agent-conversation`, w.tok.USER)).body[0];
  expect(shape.turns.map((t: any) => t.calls.map((c: any) => c.tool))).toEqual([
    ["lookup_order", "discount_for"],
    ["ask_person"],
  ]);
  expect(shape.turns.every((t: any) => t.messages.length === 0)).toBe(true);
  expect(shape.turns[1].results.every((r: any) => r.value === null)).toBe(true);
  expect(shape.waiting).toEqual([{ callId: expect.any(String), tool: "ask_person", args: {}, taskId: task.id }]);
  expect((await w.s.req("POST", `/api/a/tasks/${task.id}/claim`, { token: w.tok.ADMIN, json: {} })).status).toBe(200);
  const done = await w.s.req("POST", `/api/a/tasks/${task.id}/complete`, {
    token: w.tok.ADMIN,
    json: { variables: { approved: true, note: "fine" } },
  });
  if (done.status !== 200) console.log(await done.text());
  expect(done.status).toBe(200);
  await runJobs();
  expect(loopCalls("refunder").length).toBe(3);
  const last = toolMessages(loopCalls("refunder")[2].body).map((m) => JSON.parse(String(m.content)));
  expect(last.at(-1)).toEqual({ approved: true, note: "fine" });
  // The loop ended with its typed outputs; the flow went on.
  const after = await get(`/a/tasks?instanceId=${inst.id}`);
  expect(after.body.map((t: any) => t.activityId)).toEqual(["after"]);
  const detail = await get(`/a/history/instances/${inst.id}`);
  expect(detail.body.variables).toMatchObject({ decision: "refund", refund: 36 });
  const conv = (await get(`/a/history/instances/${inst.id}/agent-conversation`)).body[0];
  expect(conv.state).toBe("COMPLETED");
  expect(conv.waiting).toEqual([]);
  expect(conv.turns[2].final).toEqual({ decision: "refund", refund: 36 });
  expect(conv.turns[2].results).toMatchObject([
    { tool: "ask_person", ok: true, value: { approved: true, note: "fine" } },
  ]);
  // Every model call and tool call is in the history, with the turn and the model's tokens.
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as any[];
  expect(calls.map((c) => [c.tool, c.outcome, c.turn])).toEqual([
    ["model", "OK", 0],
    ["lookup_order", "OK", 0],
    ["discount_for", "OK", 0],
    ["model", "OK", 1],
    ["ask_person", "OK", 1],
    ["model", "OK", 2],
  ]);
  expect(calls.filter((c) => c.tool === "model").every((c) => c.tokens > 0)).toBe(true);
  expect(calls.find((c) => c.tool === "lookup_order").argsDigest).toMatch(/^[0-9a-f]{64}$/);
});

test("a turn whose command fails after the model answered is retried by the job rules without asking the model again", async () => {
  await createAgent(w.s, w.tok.MODELER, { key: "once", name: "Once", tools: [], outputVariables: [] });
  // What follows the loop fails in the same command as the loop's last turn: that command rolls back.
  const xml = refundProcess("once-p", "once").replace(
    '<userTask id="after" name="After"/>',
    `<serviceTask id="after" name="Broken" flowable:expression="\${'x' - 1}"/>`,
  );
  await deployBpmn(w.s, w.tok.MODELER, xml);
  w.scriptFor("once", { content: "done" }, { content: "asked twice" });
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "once-p" });
  await runJobs();
  const jobOf = async () =>
    ((await get("/a/instances/failed-jobs")).body as any[]).find((j) => j.instanceId === inst.id);
  expect(await jobOf()).toMatchObject({ activityId: "handle", retries: 2 });
  w.s.clock.advance(11_000);
  await runJobs();
  expect(await jobOf()).toMatchObject({ activityId: "handle", retries: 1 });
  // the turn's answer was kept when the model gave it: both tries used it
  expect(loopCalls("once").length).toBe(1);
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as any[];
  expect(calls.map((c) => c.tool)).toEqual(["model"]);
});

test("a robot chosen as a tool waits for its runner; its answer is the result, its last failure a failed call", async () => {
  await createAgent(w.s, w.tok.MODELER, { key: "botuser", name: "Bot user", tools: [], outputVariables: [] });
  const robotReq = (path: string, json: unknown) =>
    w.s.req("POST", `/api/a/robots${path}`, { token: w.tok.ADMIN, json });
  expect((await robotReq("", { key: "scorer", name: "Scorer" })).status).toBe(201);
  const runner = (await (
    await w.s.req("POST", "/api/a/robot-runners", { token: w.tok.ADMIN, json: { name: "scorer-runner" } })
  ).json()) as { token: string };
  const ext = (path: string, json: unknown) =>
    w.s.req("POST", `/api/a/robot-runners/external-task${path}`, { token: runner.token, json });
  const fetchLock = async () =>
    (await (
      await ext("/fetchAndLock", { maxTasks: 5, topics: [{ topicName: "scorer", lockDuration: 10_000 }] })
    ).json()) as { id: string; variables: Record<string, { value: unknown }> }[];
  const robot = `<serviceTask id="score" name="Score a customer" pms:robot="scorer">
    <extensionElements><pms:inputOutput>
      <pms:inputParameter name="customer">fromAi(toolCall.customer, "the customer's name")</pms:inputParameter>
    </pms:inputOutput></extensionElements></serviceTask>`;
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("bot-p", "botuser", robot));
  w.scriptFor(
    "botuser",
    { toolCalls: [{ name: "score", arguments: { customer: "ACME" } }] },
    { toolCalls: [{ name: "score", arguments: { customer: "Initech" } }] },
    { content: "scored" },
  );
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "bot-p" });
  await runJobs();
  const [first] = await fetchLock();
  expect(first.variables.customer.value).toBe("ACME");
  expect(loopCalls("botuser").length).toBe(1);
  expect((await ext(`/${first.id}/complete`, { variables: { score: 7 } })).status).toBe(204);
  await runJobs();
  expect(loopCalls("botuser").length).toBe(2);
  expect(JSON.parse(String(toolMessages(loopCalls("botuser")[1].body)[0].content))).toEqual({ score: 7 });
  const [second] = await fetchLock();
  expect(second.variables.customer.value).toBe("Initech");
  const failed = await ext(`/${second.id}/failure`, { errorMessage: "CRM down", retries: 0 });
  expect(failed.status).toBe(200);
  await runJobs();
  expect(loopCalls("botuser").length).toBe(3);
  expect(String(toolMessages(loopCalls("botuser")[2].body).at(-1)!.content)).toMatch(/CRM down/);
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["after"]);
});

test("an attachment row makes an unmarked ad-hoc subprocess an agent loop", async () => {
  await createAgent(w.s, w.tok.MODELER, { key: "attached", name: "Attached", tools: [], outputVariables: [] });
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("attached-p", "x").replace(' pms:agent="x"', ""));
  const put = await w.s.req("PUT", "/api/a/agents/attached/attachments", {
    token: w.tok.MODELER,
    json: { processKey: "attached-p", activityId: "handle" },
  });
  expect(put.status).toBe(200);
  w.scriptFor("attached", { content: "nothing to do" });
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "attached-p" });
  await runJobs();
  expect(loopCalls("attached").length).toBe(1);
  expect((await get(`/a/tasks?instanceId=${inst.id}`)).body.map((t: any) => t.activityId)).toEqual(["after"]);
});
