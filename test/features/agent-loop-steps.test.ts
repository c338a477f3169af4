import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { engineDbPath } from "../../tenants/paths";
import { type ChatMessage, refundProcess } from "../harness/agent-loop";
import { type ScriptedAnswer, startFakeOpenAi } from "../harness/openai-server";
import { adminTokenOf, type SpawnedServer, spawnServer } from "../harness/spawned";

// The model steps inside one turn are durable: the real service (a child process) is killed with SIGKILL while the
// model thinks about the second step of a turn whose first step called one of the agent's own tools; started again
// on the same data, the turn replays its first step (no model call, the own tool not run again) and goes on.

const ai = startFakeOpenAi();
let srv: SpawnedServer | null = null;
let dataDir = "";
afterAll(async () => {
  srv?.proc.kill("SIGKILL");
  ai.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const env = { AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed" };
async function api(method: string, path: string, token: string, body?: unknown) {
  const r = await fetch(`${srv!.base}/api${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers of several routes, read where they are used
  return { status: r.status, body: (await r.json().catch(() => null)) as any };
}
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const v = await probe();
    if (v) return v;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}
const chats = () =>
  ai.calls.filter((c) => c.path === "/v1/chat/completions").map((c) => c.body.messages as ChatMessage[]);
/** Which step of the loop's first turn a request asks: the model's answers it already holds. */
const stepOf = (messages: ChatMessage[]) => messages.filter((m) => m.role === "assistant").length;

test("kill -9 between two model steps of a turn: the first step is replayed, its own tool not run again, the model not asked again", async () => {
  let killed: Promise<number> | null = null;
  ai.respond = (body): ScriptedAnswer => {
    const messages = body.messages as ChatMessage[];
    const step = stepOf(messages);
    // turn 0, step 0: an own tool, run at once inside the turn
    if (step === 0) return { toolCalls: [{ name: "read_variables", arguments: { names: ["orderId"] } }] };
    // turn 0, step 1, first time asked: the service dies while the model thinks
    if (step === 1 && !killed)
      return {
        content: "never read",
        whileThinking: async () => {
          killed = srv!.exited;
          srv!.proc.kill("SIGKILL");
          await killed;
        },
      };
    if (step === 1) return { toolCalls: [{ name: "lookup_order", arguments: { orderId: "K7" } }] };
    return { content: '{"decision": "refund"}' };
  };
  srv = await spawnServer({ env });
  dataDir = srv.dataDir;
  let token = await adminTokenOf(srv.base, "steps");
  const agent = await api("POST", "/a/agents", token, {
    key: "stepper",
    name: "Stepper",
    modelId: "fake-chat",
    instructions: "agent stepper",
    tools: ["read_variables"],
    outputVariables: [{ name: "decision", type: "string" }],
  });
  expect(agent.status).toBe(201);
  const fd = new FormData();
  fd.append("file", new File([refundProcess("steps-p", "stepper")], "steps.bpmn"));
  const dep = await fetch(`${srv.base}/api/a/definitions/deploy`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: fd,
  });
  expect(dep.status).toBe(200);
  const started = await api("POST", "/a/instances", token, { definitionKey: "steps-p", variables: { orderId: "K7" } });
  expect(started.status).toBe(201);
  const id = started.body.id as string;
  await until("the kill", async () => killed);
  await killed;
  expect(chats().length).toBe(2);

  // The dead process held the turn's job; its lock (5 minutes) is let expire here instead of waiting for it.
  const engineDb = new Database(engineDbPath(dataDir));
  engineDb.run("UPDATE jobs SET lock_expires_at = 0 WHERE lock_owner IS NOT NULL");
  engineDb.close();
  srv = await spawnServer({ dataDir, env });
  token = await adminTokenOf(srv.base, "steps");
  await until("the flow after the loop", async () => {
    const t = (await api("GET", `/a/tasks?instanceId=${id}`, token)).body as { activityId: string }[];
    return t.find((x) => x.activityId === "after");
  });

  const all = chats();
  // the first step asked once; its second asked again (it had no answer when the service died); then turn 1
  expect(all.map(stepOf)).toEqual([0, 1, 1, 2]);
  // the second step was asked again with the first step's own tool result, as kept before the crash
  const replayed = all[2].filter((m) => m.role === "tool");
  expect(replayed.length).toBe(1);
  expect(JSON.stringify(replayed[0].content)).toContain("K7");
  // every call recorded once: the own tool once, no model call of the lost answer
  const calls = (await api("GET", `/a/history/instances/${id}/agent-calls`, token)).body as {
    tool: string;
    turn: number;
    outcome: string;
  }[];
  expect(calls.map((c) => [c.tool, c.turn])).toEqual([
    ["model", 0],
    ["read_variables", 0],
    ["model", 0],
    ["lookup_order", 0],
    ["model", 1],
  ]);
  const detail = (await api("GET", `/a/history/instances/${id}`, token)).body;
  expect(detail.variables).toMatchObject({ decision: "refund", orderId: "K7" });
  // the conversation holds the turn once, with the first step's own tool result once
  const conv = (await api("GET", `/a/history/instances/${id}/agent-conversation`, token)).body as {
    turns: { messages: unknown[] }[];
  }[];
  expect(conv[0].turns.length).toBe(2);
  expect(conv[0].turns[0].messages.filter((m) => (m as ChatMessage).role === "tool").length).toBe(1);
}, 90_000);
