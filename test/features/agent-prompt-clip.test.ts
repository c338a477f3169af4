import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { deployBpmn, startProcess } from "../harness/process";
import { type AgentWorld, agentProcess, createAgent, startAgentWorld } from "../harness/agents";
import { MAX_AGENT_PROMPT_CHARS, MAX_AGENT_VARIABLE_CHARS } from "../../app/services/agents/prompt-inputs";

// Issue 29 point 9: an agent's prompt is clipped like the other AI features', and the audit says so.
let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld();
  await createAgent(w.s, w.tok.MODELER, {
    key: "clipper",
    name: "Clipper",
    tools: ["read_variables"],
    outputVariables: [{ name: "y", type: "string" }],
  });
  await deployBpmn(w.s, w.tok.MODELER, agentProcess("clipp", `pms:agent="clipper"`, { taskFirst: true }));
});
afterAll(() => w.stop());

async function runStep(variables: Record<string, unknown>) {
  const started = await startProcess(w.s, w.tok.MODELER, { definitionKey: "clipp", variables });
  const tasks = (await (
    await w.s.req("GET", `/api/a/tasks?instanceId=${started.id}`, { token: w.tok.ADMIN })
  ).json()) as { id: string }[];
  const before = w.ai.calls.length;
  expect(
    (await w.s.req("POST", `/api/a/tasks/${tasks[0]?.id}/complete`, { token: w.tok.ADMIN, json: {} })).status,
  ).toBeLessThan(300);
  await w.s.platform.processRuntime.runDueJobs();
  const chats = w.ai.calls.slice(before).filter((c) => c.path.includes("chat"));
  const calls = (await (
    await w.s.req("GET", `/api/a/history/instances/${started.id}/agent-calls`, { token: w.tok.MODELER })
  ).json()) as { tool: string; outcome: string; detail: string | null }[];
  return { id: started.id, chats, calls };
}

describe("agent prompts are clipped", () => {
  test("a 900 KB variable reaches the model clipped, in the prompt and in a read_variables result; the audit says so", async () => {
    w.scriptFor("clipper", { toolCalls: [{ name: "read_variables", arguments: {} }] }, { content: '{"y": "done"}' });
    const big = "x".repeat(900_000);
    const { id, chats, calls } = await runStep({ big, small: "keep me" });
    expect(chats).toHaveLength(2);
    for (const c of chats) {
      const size = JSON.stringify(c.body).length;
      // Every request stays near the clipped size (instructions, tool schemas and two copies at most).
      expect(size).toBeLessThan(3 * MAX_AGENT_VARIABLE_CHARS + MAX_AGENT_PROMPT_CHARS);
      expect(JSON.stringify(c.body)).toContain("keep me");
      expect(JSON.stringify(c.body)).toContain("cut: ");
    }
    const prompts = calls.filter((c) => c.tool === "prompt");
    expect(prompts.map((c) => c.outcome)).toEqual(["OK", "OK"]);
    expect(prompts[0]?.detail).toMatch(/^inputs clipped .*big 900002 → 20000/);
    expect(prompts[1]?.detail).toMatch(/^read_variables result clipped .*big 900002 → 20000/);
    expect(calls.map((c) => c.tool)).toContain("read_variables");
    // The step still completes with its output; the variable itself is untouched.
    const vars = JSON.stringify(await w.varsOf(id));
    expect(vars).toContain("done");
  });

  test("many variables each under the limit are cut as a whole prompt", async () => {
    w.scriptFor("clipper", { content: '{"y": "many"}' });
    const many = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`v${i}`, "y".repeat(15_000)]));
    const { chats, calls } = await runStep(many);
    expect(chats).toHaveLength(1);
    expect(JSON.stringify(chats[0]?.body).length).toBeLessThan(MAX_AGENT_PROMPT_CHARS + 40_000);
    const detail = calls.find((c) => c.tool === "prompt")?.detail ?? "";
    expect(detail).toMatch(/whole prompt \d+ → 120000/);
    expect(detail).not.toMatch(/v\d+ \d+ →/);
  });

  test("small inputs are sent whole and nothing is recorded as clipped", async () => {
    w.scriptFor("clipper", { content: '{"y": "small"}' });
    const { chats, calls } = await runStep({ note: "short" });
    expect(JSON.stringify(chats[0]?.body)).not.toContain("cut: ");
    expect(calls.filter((c) => c.tool === "prompt")).toEqual([]);
  });
});
