import { afterAll, beforeAll, expect, test } from "bun:test";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";
import { type ChatMessage, chatsOf, getJson, refundProcess, runDueJobs, toolMessages } from "../harness/agent-loop";
import { deployBpmn, startProcess } from "../harness/process";

// Crash consistency of agent loops inside one process: the model steps of a turn are kept as the model answers them
// (a turn run again replays them), and a robot tool's last failure is one transaction with its report to the loop.
// The kill -9 of the real service between two steps is in agent-loop-steps.test.ts.

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
});
afterAll(() => w.stop());

const get = (path: string, token = w.tok.ADMIN) => getJson(w, path, token);
const failedJobsOf = async (instanceId: string) =>
  ((await get("/a/instances/failed-jobs")).body as { instanceId: string }[]).filter((j) => j.instanceId === instanceId);
const openTasksOf = async (instanceId: string) =>
  ((await get(`/a/tasks?instanceId=${instanceId}`)).body as { activityId: string }[]).map((t) => t.activityId);
type CallRow = { tool: string; outcome: string; turn: number };
const stepOf = (body: Record<string, unknown>) =>
  (body.messages as ChatMessage[]).filter((m) => m.role === "assistant").length;

test("a turn whose second model step fails is run again by the job rules from its kept first step: the own tool and the first model call are not repeated", async () => {
  await createAgent(w.s, w.tok.MODELER, {
    key: "stepwise",
    name: "Stepwise",
    tools: ["read_variables", "set_output"],
    outputVariables: [
      { name: "decision", type: "string" },
      { name: "seen", type: "string" },
    ],
  });
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("stepwise-p", "stepwise"));
  w.scriptFor(
    "stepwise",
    // step 0: two own tools at once (an output set on the way)
    {
      toolCalls: [
        { name: "read_variables", arguments: { names: ["orderId"] } },
        { name: "set_output", arguments: { name: "seen", value: "K3" } },
      ],
    },
    // step 1: the model fails; the turn fails and its job is retried later
    { status: 500, error: { code: "server_error", message: "scripted outage" } },
    // step 1 again, then the next turn
    { toolCalls: [{ name: "lookup_order", arguments: { orderId: "K3" } }] },
    { content: '{"decision": "refund"}' },
  );
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "stepwise-p", variables: { orderId: "K3" } });
  await runDueJobs(w);
  expect(chatsOf(w, "stepwise").length).toBe(2);
  expect(await failedJobsOf(inst.id)).toMatchObject([{ activityId: "handle", retries: 2 }]);
  w.s.clock.advance(11_000);
  await runDueJobs(w);
  expect(await openTasksOf(inst.id)).toEqual(["after"]);

  const asked = chatsOf(w, "stepwise").map((c) => stepOf(c.body));
  // step 0 asked once, step 1 twice (its first ask had no answer), then turn 1
  expect(asked).toEqual([0, 1, 1, 2]);
  // the replayed step's results, as kept: the variable read and the output set
  const replayed = toolMessages(chatsOf(w, "stepwise")[2].body);
  expect(replayed.map((m) => m.tool_call_id)).toEqual(["call_0", "call_1"]);
  expect(String(replayed[0].content)).toContain("K3");
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as CallRow[];
  expect(calls.map((c) => [c.tool, c.turn])).toEqual([
    ["model", 0],
    ["read_variables", 0],
    ["set_output", 0],
    ["model", 0],
    ["lookup_order", 0],
    ["model", 1],
  ]);
  // the output set in the kept step survived the failure and reached the instance with the final answer
  expect((await get(`/a/history/instances/${inst.id}`)).body.variables).toMatchObject({
    decision: "refund",
    seen: "K3",
  });
});

test("a robot tool's last failure is one transaction with its report to the loop, never dead-lettered: a fault in it leaves the runner holding the task, and its report again reaches the model", async () => {
  await createAgent(w.s, w.tok.MODELER, { key: "robotuser", name: "Robot user", tools: [], outputVariables: [] });
  const robot = await w.s.req("POST", "/api/a/robots", { token: w.tok.ADMIN, json: { key: "rater", name: "Rater" } });
  expect(robot.status).toBe(201);
  const runner = (await (
    await w.s.req("POST", "/api/a/robot-runners", { token: w.tok.ADMIN, json: { name: "rater-runner" } })
  ).json()) as { token: string };
  const ext = (path: string, json: unknown) =>
    w.s.req("POST", `/api/a/robot-runners/external-task${path}`, { token: runner.token, json });
  const tool = `<serviceTask id="rate" name="Rate a customer" pms:robot="rater">
    <extensionElements><pms:inputOutput>
      <pms:inputParameter name="customer">fromAi(toolCall.customer, "the customer's name")</pms:inputParameter>
    </pms:inputOutput></extensionElements></serviceTask>`;
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("robotuser-p", "robotuser", tool));
  w.scriptFor(
    "robotuser",
    { toolCalls: [{ name: "rate", arguments: { customer: "ACME" } }] },
    // told the robot failed, the model tries another tool
    { toolCalls: [{ name: "lookup_order", arguments: { orderId: "R1" } }] },
    { content: "done" },
  );
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "robotuser-p" });
  await runDueJobs(w);
  const [task] = (await (
    await ext("/fetchAndLock", { maxTasks: 1, topics: [{ topicName: "rater", lockDuration: 60_000 }] })
  ).json()) as { id: string }[];
  expect(task).toBeDefined();

  // A fault as the loop's side of the report is written: the whole report rolls back (before, the dead letter was
  // committed first, in a transaction of its own, and the loop waited for a result that never came).
  let faults = 0;
  const off = w.s.platform.kernel.writeHooks.add((c) => {
    if (c.kind === "job-dead-lettered") throw new Error("a tool's failure told to its loop is not dead-lettered");
    if (c.kind === "bpmn" && c.changes.executions.size && faults++ === 0) throw new Error("injected fault");
  });
  const broken = await ext(`/${task.id}/failure`, { errorMessage: "rating service down", retries: 0 });
  expect(faults).toBe(1);
  expect(broken.status).toBeGreaterThanOrEqual(500);
  // neither written: no dead letter, the runner still holds its task, the loop still waits for it
  expect(await failedJobsOf(inst.id)).toEqual([]);
  await runDueJobs(w);
  expect(chatsOf(w, "robotuser").length).toBe(1);

  // The runner reports again: the loop gets the failed tool result and goes on with another tool.
  const told = await ext(`/${task.id}/failure`, { errorMessage: "rating service down", retries: 0 });
  off();
  expect(told.status).toBe(200);
  expect(await told.json()).toEqual({ retries: 0, state: "DEADLETTER" });
  await runDueJobs(w);
  const chats = chatsOf(w, "robotuser");
  expect(chats.length).toBe(3);
  expect(String(toolMessages(chats[1].body).at(-1)!.content)).toMatch(/rating service down/);
  expect(JSON.parse(String(toolMessages(chats[2].body).at(-1)!.content))).toEqual({ order: "order R1 of 40 EUR" });
  expect(await openTasksOf(inst.id)).toEqual(["after"]);
  const calls = (await get(`/a/history/instances/${inst.id}/agent-calls`)).body as CallRow[];
  expect(calls.map((c) => [c.tool, c.outcome])).toEqual([
    ["model", "OK"],
    ["rate", "ERROR"],
    ["model", "OK"],
    ["lookup_order", "OK"],
    ["model", "OK"],
  ]);
  // the robot's job is gone with its cancelled activity: nothing dead-lettered, nothing for a runner to take
  expect(await failedJobsOf(inst.id)).toEqual([]);
  const left = await ext("/fetchAndLock", { maxTasks: 1, topics: [{ topicName: "rater", lockDuration: 1_000 }] });
  expect(await left.json()).toEqual([]);
});

test("a replayed step's spend counts: the model-call limit is reached on the run again as it would have been without the failure", async () => {
  await createAgent(w.s, w.tok.MODELER, {
    key: "spender",
    name: "Spender",
    tools: ["read_variables"],
    outputVariables: [],
    limits: { maxModelCalls: 2 },
  });
  await deployBpmn(w.s, w.tok.MODELER, refundProcess("spender-p", "spender"));
  w.scriptFor(
    "spender",
    { toolCalls: [{ name: "read_variables", arguments: {} }] },
    { status: 500, error: { code: "server_error", message: "scripted outage" } },
    { toolCalls: [{ name: "lookup_order", arguments: { orderId: "S1" } }] },
    { content: "one call too many" },
  );
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "spender-p", businessKey: "spender-1" });
  await runDueJobs(w);
  w.s.clock.advance(11_000);
  await runDueJobs(w);
  // the kept step and the step asked again are its two model calls: the next turn is refused without asking
  expect(chatsOf(w, "spender").map((c) => stepOf(c.body))).toEqual([0, 1, 1]);
  const f = (await w.failures(w.tok.ADMIN, "?businessKey=spender-1")).content[0];
  expect(f).toMatchObject({ failureType: "MODEL_CALLS_EXCEEDED", activity: "handle", instanceId: inst.id });
});
