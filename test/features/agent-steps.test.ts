import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { expectError } from "../harness/fixtures";
import { deployBpmn, startProcess } from "../harness/process";
import { type AgentWorld, agentProcess, createAgent, startAgentWorld } from "../harness/agents";

let w: AgentWorld;
beforeAll(async () => {
  w = await startAgentWorld({ withBare: false });
});
afterAll(() => w.stop());

describe("agent steps in processes", () => {
  test("an agent step after a task reads the uploaded document and writes the extracted fields as variables", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "extractor",
      name: "Extractor",
      tools: ["read_attachments", "set_output"],
      outputVariables: [
        { name: "invoiceNumber", type: "string" },
        { name: "amount", type: "number" },
      ],
    });
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("extract", `pms:agent="extractor"`, { taskFirst: true }));
    const started = await startProcess(w.s, w.tok.MODELER, { definitionKey: "extract", businessKey: "doc-1" });
    const f = new FormData();
    f.append("file", new File(["Invoice INV-42, total due 1250.50 EUR"], "invoice.txt", { type: "text/plain" }));
    f.append("entityType", "PROCESS_INSTANCE");
    f.append("entityId", started.id);
    expect((await w.s.req("POST", "/api/a/attachments", { token: w.tok.ADMIN, body: f })).status).toBe(201);
    w.scriptFor(
      "extractor",
      { toolCalls: [{ name: "read_attachments", arguments: {} }] },
      { toolCalls: [{ name: "set_output", arguments: { name: "invoiceNumber", value: "INV-42" } }] },
      { content: '{"amount": "1250.50"}' },
    );
    const task = (await (
      await w.s.req("GET", `/api/a/tasks?instanceId=${started.id}`, { token: w.tok.ADMIN })
    ).json()) as { id: string }[];
    const done = await w.s.req("POST", `/api/a/tasks/${task[0].id}/complete`, { token: w.tok.ADMIN, json: {} });
    expect(done.status).toBeLessThan(300);
    // the completion does not wait on the model: the step is an async job
    await w.s.platform.processRuntime.runDueJobs();
    const vars = await w.varsOf(started.id);
    expect(JSON.stringify(vars)).toContain("INV-42");
    expect(JSON.stringify(vars)).toContain("1250.5");
    // the document's text reached the model through the tool
    expect(JSON.stringify(w.ai.calls.at(-1)?.body)).toContain("total due 1250.50");
    const calls = (await (
      await w.s.req("GET", `/api/a/history/instances/${started.id}/agent-calls`, { token: w.tok.MODELER })
    ).json()) as {
      tool: string;
      outcome: string;
      activity: string;
      argsDigest: string;
    }[];
    expect(calls.map((c) => [c.tool, c.outcome, c.activity])).toEqual([
      ["read_attachments", "OK", "step"],
      ["set_output", "OK", "step"],
    ]);
    expect(calls[0].argsDigest).toMatch(/^[0-9a-f]{64}$/);
    await expectError(
      await w.s.req("GET", `/api/a/history/instances/${started.id}/agent-calls`, { token: w.tok.OTHER }),
      404,
    );
  });

  test("a failing agent at the start leaves no instance, one failure row and one notification; a second failure counts", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "screener",
      name: "Screener",
      outputVariables: [{ name: "ok", type: "boolean" }],
    });
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("screen", `flowable:type="agent" pms:agent="screener"`));
    w.scriptFor("screener", { status: 503 });
    const r = await w.s.req("POST", "/api/a/instances", {
      token: w.tok.MODELER,
      json: { definitionKey: "screen", businessKey: "bk-fail" },
    });
    await expectError(r, 422, /MODEL_UNAVAILABLE/);
    const list = (await (await w.s.req("GET", "/api/a/instances?size=100", { token: w.tok.ADMIN })).json()) as {
      content: { definitionKey: string }[];
    };
    expect(list.content.filter((i) => i.definitionKey === "screen")).toEqual([]);
    const page = await w.failures(w.tok.USER, "?businessKey=bk-fail");
    expect(page.size).toBe(20);
    expect(page.content).toHaveLength(1);
    expect(page.content[0]).toMatchObject({
      engine: "BPMN",
      processKey: "screen",
      businessKey: "bk-fail",
      activity: "step",
      failureType: "MODEL_UNAVAILABLE",
      attemptCount: 1,
    });
    expect(await w.aiFailedCount(w.tok.MODELER)).toBe(1);
    // submitting again: the same step fails again
    w.scriptFor("screener", { content: "no JSON here" });
    await expectError(
      await w.s.req("POST", "/api/a/instances", {
        token: w.tok.MODELER,
        json: { definitionKey: "screen", businessKey: "bk-fail" },
      }),
      422,
      /INVALID_OUTPUT/,
    );
    const again = await w.failures(w.tok.USER, "?businessKey=bk-fail");
    expect(again.content).toHaveLength(1);
    expect(again.content[0]).toMatchObject({ attemptCount: 2, failureType: "INVALID_OUTPUT" });
    expect(await w.aiFailedCount(w.tok.MODELER)).toBe(1);
    // another tenant sees none of it
    expect((await w.failures(w.tok.OTHER, "?businessKey=bk-fail")).content).toEqual([]);
  });

  test("a start by API w.key writes the failure row and notifies nobody; a succeeding start keeps its variables", async () => {
    w.scriptFor("screener", { status: 500 });
    const r = await w.s.req("POST", "/api/a/instances", {
      apiKey: w.key,
      json: { definitionKey: "screen", businessKey: "bk-key" },
    });
    expect(r.status).toBe(422);
    expect((await w.failures(w.tok.ADMIN, "?businessKey=bk-key")).content[0]).toMatchObject({ attemptCount: 1 });
    expect(await w.aiFailedCount(w.tok.MODELER)).toBe(1);
    expect(await w.aiFailedCount(w.tok.ADMIN)).toBe(0);
    w.scriptFor("screener", { content: '{"ok": true}' });
    const ok = await startProcess(w.s, w.tok.ADMIN, { definitionKey: "screen", businessKey: "bk-ok" });
    expect(ok.activeTasks.map((t) => t.activityId)).toEqual(["after"]);
  });

  test("an attachment row makes a plain service task an agent step", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "tagger",
      name: "Tagger",
      outputVariables: [{ name: "tag", type: "string" }],
    });
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("attached", ""));
    await w.s.req("PUT", "/api/a/agents/tagger/attachments", {
      token: w.tok.MODELER,
      json: { processKey: "attached", activityId: "step" },
    });
    w.scriptFor("tagger", { content: '{"tag": "urgent"}' });
    const st = await startProcess(w.s, w.tok.MODELER, { definitionKey: "attached" });
    const vars = JSON.stringify(await w.varsOf(st.id));
    expect(vars).toContain("urgent");
  });

  test("an agent at PUBLIC cannot read a SECRET collection; the refusal is recorded and told to the model", async () => {
    const col = await w.s.req("POST", "/api/a/cms/collections", {
      token: w.tok.ADMIN,
      json: { name: "salaries", confidentiality: "SECRET", fields: [{ name: "who", type: "text" }] },
    });
    expect(col.status).toBe(201);
    await createAgent(w.s, w.tok.MODELER, {
      key: "snoop",
      name: "Snoop",
      tools: ["cms_query"],
      outputVariables: [{ name: "n", type: "number" }],
    });
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("snoopy", `pms:agent="snoop"`));
    w.scriptFor(
      "snoop",
      { toolCalls: [{ name: "cms_query", arguments: { collection: "salaries" } }] },
      { content: '{"n": 0}' },
    );
    const st = await startProcess(w.s, w.tok.MODELER, { definitionKey: "snoopy" });
    const calls = (await (
      await w.s.req("GET", `/api/a/history/instances/${st.id}/agent-calls`, { token: w.tok.MODELER })
    ).json()) as { outcome: string; detail: string }[];
    expect(calls).toMatchObject([{ outcome: "REFUSED" }]);
    expect(calls[0].detail).toMatch(/SECRET/);
  });

  test("an agent declaring another tenant is refused: the step fails with TOOL_REFUSED", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "rogue",
      name: "Rogue",
      tools: ["read_variables"],
      outputVariables: [{ name: "x", type: "string" }],
    });
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("roguep", `pms:agent="rogue"`));
    w.scriptFor(
      "rogue",
      { toolCalls: [{ name: "read_variables", arguments: { tenantId: w.otherTenantId } }] },
      { content: '{"x": "stolen"}' },
    );
    await expectError(
      await w.s.req("POST", "/api/a/instances", {
        token: w.tok.MODELER,
        json: { definitionKey: "roguep", businessKey: "bk-rogue" },
      }),
      422,
      /TOOL_REFUSED/,
    );
    expect((await w.failures(w.tok.MODELER, "?businessKey=bk-rogue")).content[0]).toMatchObject({
      failureType: "TOOL_REFUSED",
    });
  });

  test("the playground runs an agent on inputs with the lower of the user's and the agent's clearance", async () => {
    // An Admin grants TOP_SECRET (a Modeler cannot give more than PUBLIC); the Modeler then runs it at PUBLIC.
    await createAgent(w.s, w.tok.ADMIN, {
      key: "play",
      name: "Play",
      cmsClearance: "TOP_SECRET",
      tools: ["cms_query"],
      outputVariables: [{ name: "y", type: "string" }],
    });
    w.scriptFor(
      "play",
      { toolCalls: [{ name: "cms_query", arguments: { collection: "salaries" } }] },
      { content: '{"y": "hello"}' },
    );
    const r = await w.s.req("POST", "/api/a/agents/play/playground", {
      token: w.tok.MODELER,
      json: { inputs: { q: 1 } },
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { outputs: unknown; clearance: string; toolCalls: { outcome: string }[] };
    expect(body).toMatchObject({ outputs: { y: "hello" }, clearance: "PUBLIC", toolCalls: [{ outcome: "REFUSED" }] });
    await expectError(
      await w.s.req("POST", "/api/a/agents/play/playground", { token: w.tok.USER, json: { inputs: {} } }),
      403,
    );
    await expectError(
      await w.s.req("POST", "/api/a/agents/play/playground", { token: w.tok.OTHER, json: { inputs: {} } }),
      404,
    );
  });

  test("a slow model does not block another tenant's writes", async () => {
    await createAgent(w.s, w.tok.MODELER, {
      key: "slow",
      name: "Slow",
      outputVariables: [{ name: "z", type: "string" }],
    });
    await deployBpmn(w.s, w.tok.MODELER, agentProcess("slowp", `pms:agent="slow"`));
    w.scriptFor("slow", { content: '{"z": "late"}', delayMs: 1500 });
    let slowAnswered = false;
    const slowStart = w.s
      .req("POST", "/api/a/instances", { token: w.tok.MODELER, json: { definitionKey: "slowp" } })
      .then((r) => {
        slowAnswered = true;
        return r;
      });
    await Bun.sleep(100);
    const write = await w.s.req("POST", "/api/a/agents", {
      token: w.tok.OTHER,
      json: { key: "quick", name: "Q", modelId: "fake-chat", instructions: "x" },
    });
    await deployBpmn(w.s, w.tok.OTHER, agentProcess("plain", `flowable:expression="\${1}"`));
    await startProcess(w.s, w.tok.OTHER, { definitionKey: "plain" });
    // The other tenant's writes were served while the model was still answering (not queued behind it).
    expect(slowAnswered).toBe(false);
    expect(write.status).toBe(201);
    expect((await slowStart).status).toBe(201);
  });
});
