import { afterAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { refundProcess } from "../harness/agent-loop";
import { startFakeOpenAi, type ScriptedAnswer } from "../harness/openai-server";
import { adminTokenOf, type SpawnedServer, spawnServer } from "../harness/spawned";

// The loop's conversation lives with the instance: the real service (a child process) is killed with SIGKILL while
// the loop waits for a person, started again on the same data, and the loop resumes where it was.

const ai = startFakeOpenAi();
const script: ScriptedAnswer[] = [
  {
    toolCalls: [
      { name: "lookup_order", arguments: { orderId: "K9" } },
      { name: "ask_person", arguments: { question: "Refund K9?" } },
    ],
  },
  { content: '{"decision": "refund"}' },
];
ai.respond = () => script.shift();
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
  return { status: r.status, body: (await r.json().catch(() => null)) as any };
}
async function until<T>(what: string, probe: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v) return v;
    await Bun.sleep(100);
  }
  throw new Error(`timed out waiting for ${what}`);
}
const chats = () => ai.calls.filter((c) => c.path === "/v1/chat/completions").length;

test("kill -9 while the loop waits for a person: after the restart the person's answer resumes it, nothing repeated", async () => {
  srv = await spawnServer({ env });
  dataDir = srv.dataDir;
  let token = await adminTokenOf(srv.base, "loops");
  const agent = await api("POST", "/a/agents", token, {
    key: "durable",
    name: "Durable",
    modelId: "fake-chat",
    instructions: "agent durable",
    tools: [],
    outputVariables: [{ name: "decision", type: "string" }],
  });
  expect(agent.status).toBe(201);
  const fd = new FormData();
  fd.append("file", new File([refundProcess("durable-p", "durable")], "durable.bpmn"));
  const dep = await fetch(`${srv.base}/api/a/definitions/deploy`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: fd,
  });
  expect(dep.status).toBe(200);
  const inst = (await api("POST", "/a/instances", token, { definitionKey: "durable-p" })).body as { id: string };
  const task = await until("the person's task", async () => {
    const t = (await api("GET", `/a/tasks?instanceId=${inst.id}`, token)).body as any[];
    return t.find((x) => x.activityId === "ask_person");
  });
  // the lookup, called in the same turn, has finished too; the loop now waits for the person
  await until("the lookup", async () => {
    const acts = (await api("GET", `/a/history/instances/${inst.id}/activities`, token)).body as any[];
    return acts.find((a) => a.activityId === "lookup_order" && a.endTime);
  });
  expect(chats()).toBe(1);
  srv.proc.kill("SIGKILL");
  await srv.exited;

  srv = await spawnServer({ dataDir, env });
  token = await adminTokenOf(srv.base, "loops");
  expect((await api("POST", `/a/tasks/${task.id}/claim`, token, {})).status).toBe(200);
  const done = await api("POST", `/a/tasks/${task.id}/complete`, token, { variables: { approved: true } });
  expect(done.status).toBe(200);
  await until("the flow after the loop", async () => {
    const t = (await api("GET", `/a/tasks?instanceId=${inst.id}`, token)).body as any[];
    return t.find((x) => x.activityId === "after");
  });
  // one model call per turn, each tool once
  expect(chats()).toBe(2);
  const acts = (await api("GET", `/a/history/instances/${inst.id}/activities`, token)).body as any[];
  expect(acts.filter((a) => a.activityId === "lookup_order").length).toBe(1);
  expect(acts.filter((a) => a.activityId === "ask_person").length).toBe(1);
  const calls = (await api("GET", `/a/history/instances/${inst.id}/agent-calls`, token)).body as any[];
  expect(calls.map((c) => c.tool)).toEqual(["model", "lookup_order", "ask_person", "model"]);
  const detail = (await api("GET", `/a/history/instances/${inst.id}`, token)).body;
  expect(detail.variables).toMatchObject({ decision: "refund", approved: true });
}, 60_000);
