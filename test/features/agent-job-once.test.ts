import { afterAll, beforeAll, expect, test } from "bun:test";
import { besideUserTask, deployBpmn, startProcess } from "../harness/process";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
});
afterAll(() => w.stop());

/** The async agent step `step` beside the user task `side` (harness: besideUserTask). */
const forked = (key: string, agent: string) =>
  besideUserTask(
    key,
    "step",
    `<serviceTask id="step" name="AI step" flowable:async="true" flowable:type="agent" pms:agent="${agent}"/>`,
  );

/** Chat calls the local model server received for `agent` (its instructions start "agent <key>"). */
const modelCalls = (agent: string) =>
  w.ai.calls.filter(
    (c) =>
      c.path === "/v1/chat/completions" &&
      (c.body.messages as { role: string; content: unknown }[]).some(
        (m) => m.role === "system" && String(m.content).startsWith(`agent ${agent}`),
      ),
  ).length;

// The job of an agent step awaits the model while its command computes. Another command on the instance meanwhile
// (here: the parallel branch's task completed) makes the job's write meet a revision conflict, and the command runner
// computes the command again. The model must not be asked again: its tool calls, its usage and (when it fails) its
// failure record would repeat, and a slow model under traffic would be asked up to nine times.
test("an async agent step's job asks the model once, even when its command is recomputed after a revision conflict", async () => {
  await createAgent(w.s, w.tok.MODELER, {
    key: "tagger",
    name: "Tagger",
    tools: ["set_output"],
    outputVariables: [
      { name: "tag", type: "string" },
      { name: "score", type: "number" },
    ],
  });
  await deployBpmn(w.s, w.tok.MODELER, forked("tagging", "tagger"));
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "tagging", businessKey: "tag-1" });
  expect(inst.activeTasks.map((t) => t.activityId)).toEqual(["side"]);
  let sideDone = 0;
  // One conversation, scripted once: a tool round, during which the side task is completed, then the final answer.
  w.scriptFor(
    "tagger",
    {
      toolCalls: [{ name: "set_output", arguments: { name: "tag", value: "urgent" } }],
      whileThinking: async () => {
        const r = await w.s.req("POST", `/api/a/tasks/${inst.activeTasks[0].id}/complete`, {
          token: w.tok.ADMIN,
          json: {},
        });
        sideDone = r.status;
      },
    },
    { content: '{"score": 7}' },
  );
  const asked = modelCalls("tagger");
  const recomputed = w.s.platform.processRuntime.commandRecomputations();
  const ran = await w.s.platform.processRuntime.runDueJobs();
  expect(sideDone).toBe(200);
  // The scenario did what it is for: the job's command met the conflict and was computed again.
  expect(w.s.platform.processRuntime.commandRecomputations()).toBeGreaterThan(recomputed);
  // the tool round and the final answer, once each: the recomputed command reused the conversation's outcome
  expect(modelCalls("tagger") - asked).toBe(2);
  expect(ran).toBe(1);
  const toolCalls = (await (
    await w.s.req("GET", `/api/a/history/instances/${inst.id}/agent-calls`, { token: w.tok.ADMIN })
  ).json()) as { tool: string; outcome: string }[];
  expect(toolCalls.map((c) => [c.tool, c.outcome])).toEqual([["set_output", "OK"]]);
  // the job committed with the outputs, on top of the side branch's completion
  const tasks = (await (await w.s.req("GET", `/api/a/tasks?instanceId=${inst.id}`, { token: w.tok.ADMIN })).json()) as {
    activityId: string;
  }[];
  expect(tasks.map((t) => t.activityId)).toEqual(["after"]);
  const detail = (await (
    await w.s.req("GET", `/api/a/history/instances/${inst.id}`, { token: w.tok.ADMIN })
  ).json()) as { variables: Record<string, unknown> };
  expect(detail.variables).toMatchObject({ tag: "urgent", score: 7 });
  expect((await w.failures(w.tok.ADMIN, "?businessKey=tag-1")).content).toEqual([]);
  const failed = (await (await w.s.req("GET", "/api/a/instances/failed-jobs", { token: w.tok.MANAGER })).json()) as {
    instanceId: string;
  }[];
  expect(failed.filter((j) => j.instanceId === inst.id)).toEqual([]);
});
