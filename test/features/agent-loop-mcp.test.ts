import { afterAll, beforeAll, expect, test } from "bun:test";
import { refundProcess } from "../harness/agent-loop";
import { createAgent } from "../harness/agents";
import { createTenant, saTenantToken } from "../harness/fixtures";
import { type Listening, mcpClient, okOf, refusalOf, startListening } from "../harness/mcp";
import { startFakeOpenAi } from "../harness/openai-server";
import { deployBpmn, startProcess } from "../harness/process";
import { SA_EMAIL, SA_PASSWORD } from "../harness/server";

// MCP's svc_run_instance_get reads an instance's agent loops too: what they did and what they wait for.

const ai = startFakeOpenAi();
let L: Listening;
beforeAll(async () => {
  L = await startListening({ AI_BASE_URL: ai.url, AI_MODEL: "fake-chat", AI_EMBEDDING_MODEL: "fake-embed" });
});
afterAll(async () => {
  await L.close();
  ai.stop();
});

test("svc_run_instance_get shows an instance's agent loop and the person's task it waits for; another tenant's is not found", async () => {
  const t = await createTenant(L.s, "loops-mcp");
  await createTenant(L.s, "loops-other");
  const token = await saTenantToken(L.s, t);
  await createAgent(L.s, token, { key: "mcp-agent", name: "MCP agent", tools: [], outputVariables: [] });
  await deployBpmn(L.s, token, refundProcess("mcp-p", "mcp-agent"));
  ai.script.push({ toolCalls: [{ name: "ask_person", arguments: { question: "May I?" } }] });
  const inst = await startProcess(L.s, token, { definitionKey: "mcp-p" });
  for (let i = 0; i < 10 && (await L.s.platform.processRuntime.runDueJobs()) > 0; i++);
  const client = await mcpClient(L.url, { email: SA_EMAIL, password: SA_PASSWORD, tenant: "loops-mcp" });
  const call = async (c: typeof client, args: Record<string, unknown>) =>
    (await c.callTool({ name: "svc_run_instance_get", arguments: args })) as Parameters<typeof okOf>[0];
  const got = okOf(await call(client, { instanceId: inst.id }));
  expect(got.agentLoops).toEqual([
    {
      subProcessId: "handle",
      agentKey: "mcp-agent",
      state: "RUNNING",
      turns: 1,
      tokens: expect.any(Number),
      lastCalls: ["ask_person"],
      waiting: [{ tool: "ask_person", taskId: expect.any(String) }],
    },
  ]);
  const other = await mcpClient(L.url, { email: SA_EMAIL, password: SA_PASSWORD, tenant: "loops-other" });
  expect(refusalOf(await call(other, { instanceId: inst.id }))).toMatch(/not found/i);
  await client.close();
  await other.close();
});
