import { afterAll, beforeAll, expect, test } from "bun:test";
import { besideUserTask, deployBpmn, startProcess } from "../harness/process";
import { type AgentWorld, createAgent, startAgentWorld } from "../harness/agents";

// One open tenant file at most: any request to another tenant closes every file nobody holds a lease on.
let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld({ env: { MAX_OPEN_TENANT_DBS: "1" } });
});
afterAll(() => w.stop());

// An agent step waits seconds for its model. Its tools and their audit use the tenant's database after that wait, so
// the step must hold its tenant's file for its whole run: when it did not, a request to another tenant during the
// model's answer closed the file, both tool calls answered "Cannot use a closed database" to the model, the audit
// recorded none of them, and the step still succeeded.
test("an agent step keeps its tenant's database open while the model answers, whatever other tenants open", async () => {
  await createAgent(w.s, w.tok.MODELER, {
    key: "leaser",
    name: "Leaser",
    tools: ["read_variables", "set_output"],
    outputVariables: [{ name: "tag", type: "string" }],
  });
  await deployBpmn(
    w.s,
    w.tok.MODELER,
    besideUserTask(
      "leasing",
      "step",
      `<serviceTask id="step" name="AI step" flowable:async="true" flowable:type="agent" pms:agent="leaser"/>`,
    ),
  );
  const inst = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "leasing", variables: { topic: "rent" } });
  let otherTenant = 0;
  w.scriptFor(
    "leaser",
    {
      toolCalls: [
        { name: "read_variables", arguments: {} },
        { name: "set_output", arguments: { name: "tag", value: "urgent" } },
      ],
      // Another tenant's request while the model thinks: it opens that tenant's file, over the bound of one.
      whileThinking: async () => {
        otherTenant = (await w.s.req("GET", "/api/a/definitions", { token: w.tok.OTHER })).status;
      },
    },
    { content: "{}" },
  );
  expect(await w.s.platform.processRuntime.runDueJobs()).toBe(1);
  expect(otherTenant).toBe(200);
  const calls = (await (
    await w.s.req("GET", `/api/a/history/instances/${inst.id}/agent-calls`, { token: w.tok.ADMIN })
  ).json()) as { tool: string; outcome: string }[];
  expect(calls.map((c) => [c.tool, c.outcome])).toEqual([
    ["read_variables", "OK"],
    ["set_output", "OK"],
  ]);
  const detail = (await (await w.s.req("GET", `/api/a/instances/${inst.id}`, { token: w.tok.ADMIN })).json()) as {
    variables: Record<string, unknown>;
  };
  expect(detail.variables.tag).toBe("urgent");
});
