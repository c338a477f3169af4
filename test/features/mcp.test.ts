import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { basic, type Listening, mcpClient, rawInitialize, startListening } from "../harness/mcp";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import { deployBpmn } from "../harness/process";

const FLOW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="KEY" isExecutable="true">
    <startEvent id="s"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
    <userTask id="review" name="Review"/>
    <sequenceFlow id="f2" sourceRef="review" targetRef="gw"/>
    <exclusiveGateway id="gw" default="f4"/>
    <sequenceFlow id="f3" sourceRef="gw" targetRef="approved"><conditionExpression>\${amount &gt; 100}</conditionExpression></sequenceFlow>
    <sequenceFlow id="f4" sourceRef="gw" targetRef="rejected"/>
    <endEvent id="approved" name="Approved"/>
    <endEvent id="rejected" name="Rejected"/>
  </process>
</definitions>`;

let L: Listening;
let tenant: { id: string; slug: string };
let admin: { id: string; email: string; password: string; token: string };
let user: { email: string; password: string };
let mcp: Client;

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };
const call = async (name: string, args: Record<string, unknown> = {}, c = mcp) =>
  (await c.callTool({ name, arguments: args })) as Result;
const ok = (r: Result) => {
  if (r.isError) throw new Error(r.content[0]?.text);
  return r.structuredContent as Record<string, any>;
};
const refused = (r: Result, msg: RegExp) => {
  expect(r.isError).toBe(true);
  expect(r.content[0].text).toMatch(msg);
};
const setPolicy = (key: string, mcpPolicy: string) =>
  L.s.req("PUT", `/api/a/definitions/${key}/config`, { token: admin.token, json: { mcpPolicy } });

beforeAll(async () => {
  L = await startListening();
  const sa = await saToken(L.s);
  tenant = await createTenant(L.s, "acme", sa);
  admin = await userInTenant(L.s, tenant, "ADMIN", sa);
  user = await userInTenant(L.s, tenant, "USER", sa);
  for (const k of ["pNone", "pRead", "pFull"]) await deployBpmn(L.s, admin.token, FLOW.replace("KEY", k));
  expect((await setPolicy("pRead", "START_AND_READ")).status).toBe(200);
  expect((await setPolicy("pFull", "START_AND_COMPLETE")).status).toBe(200);
  mcp = await mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "acme" });
});
afterAll(async () => {
  await mcp?.close();
  await L?.close();
});

describe("transport and authentication", () => {
  test("initialize negotiates the protocol and opens a session", async () => {
    const res = await rawInitialize(L.url, {
      authorization: basic(admin.email, admin.password),
      "x-tenant-id": "acme",
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("mcp-session-id")).toBeTruthy();
    expect(res.headers.get("x-accel-buffering")).toBe("no");
    expect(await res.text()).toContain('"protocolVersion":"2025-06-18"');
    expect(mcp.getServerVersion()?.name).toBe("svc-mcp");
  });

  test("a wrong password answers 401 with the Basic challenge; no credential too", async () => {
    for (const authorization of [basic(admin.email, "wrong-password"), undefined]) {
      const res = await fetch(L.url, {
        method: "POST",
        headers: { ...(authorization ? { authorization } : {}), "content-type": "application/json" },
        body: "{}",
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe('Basic realm="svc-mcp"');
    }
  });

  test("a slug the user is not a member of does not authenticate", async () => {
    await createTenant(L.s, "other");
    await expect(mcpClient(L.url, { email: admin.email, password: admin.password, tenant: "other" })).rejects.toThrow(
      /401/,
    );
  });

  test("a foreign browser origin is refused; a local one passes the origin check", async () => {
    const h = { authorization: basic(admin.email, admin.password), "content-type": "application/json" };
    const evil = await fetch(L.url, { method: "POST", headers: { ...h, origin: "http://evil.example" }, body: "{}" });
    expect(evil.status).toBe(403);
    const local = await fetch(L.url, {
      method: "POST",
      headers: { ...h, origin: "http://localhost:3000" },
      body: "{}",
    });
    expect(local.status).toBe(400); // past the origin and the credential: no session, not an initialize
  });

  test("an ordinary user authenticates but lists no tool and every call is refused", async () => {
    const c = await mcpClient(L.url, { ...user, tenant: "acme" });
    expect((await c.listTools()).tools).toEqual([]);
    refused(await call("svc_process_list", {}, c), /ADMIN role or SUPER_ADMIN/);
    await c.close();
  });

  test("MCP_SERVER_ENABLED=false removes the route", async () => {
    const off = await startListening({ MCP_SERVER_ENABLED: "false" });
    const res = await fetch(off.url, { method: "POST", headers: { authorization: basic("a@b.c", "x") }, body: "{}" });
    expect(res.status).toBe(404);
    await off.close();
  });
});

describe("tools", () => {
  test("tools/list names every registered tool with its hints and schemas", async () => {
    const { tools } = await mcp.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    expect(byName.get("svc_run_task_complete")?.annotations).toMatchObject({
      readOnlyHint: false,
      destructiveHint: true,
    });
    expect(byName.get("svc_process_list")?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(byName.get("svc_run_start")?.inputSchema.required).toEqual(["definitionKey"]);
    for (const t of tools) expect(t.outputSchema?.type).toBe("object");
    // Exactly the tools of the spec's table ("MCP server (/a/mcp)"), no more, no fewer (copied here so the test runs
    // without the spec beside the clone).
    const specNames = [
      "svc_agent_attach_to_step",
      "svc_agent_create",
      "svc_agent_list",
      "svc_agent_suggest_knowledge",
      "svc_ai_model_list",
      "svc_cms_collection_create",
      "svc_cms_collection_list",
      "svc_cms_field_types",
      "svc_cms_records_load",
      "svc_cms_records_query",
      "svc_form_create",
      "svc_form_field_types",
      "svc_form_get",
      "svc_form_list",
      "svc_form_publish",
      "svc_form_update",
      "svc_form_versions",
      "svc_kb_add_text",
      "svc_kb_create",
      "svc_kb_link_process",
      "svc_kb_list",
      "svc_process_deploy",
      "svc_process_doc_get",
      "svc_process_doc_propose",
      "svc_process_get_xml",
      "svc_process_list",
      "svc_process_validate",
      "svc_process_versions",
      "svc_run_attach_text",
      "svc_run_instance_get",
      "svc_run_my_tasks",
      "svc_run_start",
      "svc_run_startable_list",
      "svc_run_task_claim",
      "svc_run_task_complete",
      "svc_run_task_get",
      "svc_run_task_preview",
      "svc_run_why_failed",
    ];
    expect(specNames).toHaveLength(38);
    expect(tools.map((t) => t.name).sort()).toEqual(specNames);
  });

  test("service errors come back as tool errors with the REST message; bad input with the field", async () => {
    refused(await call("svc_process_versions", { key: "nope" }), /Definition 'nope' not found/);
    refused(await call("svc_run_start", {}), /definitionKey/);
  });
});

describe("policy and the confirmation token", () => {
  test("NONE refuses start; START_AND_READ starts but refuses completion", async () => {
    refused(await call("svc_run_start", { definitionKey: "pNone" }), /policy of process 'pNone' is NONE/);
    const started = ok(await call("svc_run_start", { definitionKey: "pRead" }));
    expect(started.neverPublished).toBe(true);
    expect(started.note).toMatch(/never been published/);
    const taskId = started.activeTasks[0].id;
    ok(await call("svc_run_task_claim", { taskId }));
    const p = ok(await call("svc_run_task_preview", { taskId, variables: {} }));
    refused(
      await call("svc_run_task_complete", { taskId, variables: {}, confirmationToken: p.confirmationToken }),
      /START_AND_READ/,
    );
  });

  test("START_AND_COMPLETE: claimed, previewed, same variables: completes on channel MCP", async () => {
    const started = ok(await call("svc_run_start", { definitionKey: "pFull" }));
    const taskId = started.activeTasks[0].id;
    const vars = { amount: 150 };
    const early = ok(await call("svc_run_task_preview", { taskId, variables: vars }));
    refused(
      await call("svc_run_task_complete", { taskId, variables: vars, confirmationToken: early.confirmationToken }),
      /not claimed by you/,
    );
    ok(await call("svc_run_task_claim", { taskId }));
    const p = ok(await call("svc_run_task_preview", { taskId, variables: vars }));
    expect(p.nextActivities).toEqual([
      expect.objectContaining({ activityId: "approved", conditional: true, condition: "${amount > 100}" }),
      expect.objectContaining({ activityId: "rejected", conditional: false, isDefault: true }),
    ]);
    refused(
      await call("svc_run_task_complete", {
        taskId,
        variables: { amount: 151 },
        confirmationToken: p.confirmationToken,
      }),
      /does not match/,
    );
    const done = ok(
      await call("svc_run_task_complete", { taskId, variables: vars, confirmationToken: p.confirmationToken }),
    );
    expect(done.channel).toBe("MCP");
    expect(done.state).toBe("COMPLETED");
  });

  test("a token older than ten minutes has expired", async () => {
    const started = ok(await call("svc_run_start", { definitionKey: "pFull" }));
    const taskId = started.activeTasks[0].id;
    ok(await call("svc_run_task_claim", { taskId }));
    const p = ok(await call("svc_run_task_preview", { taskId, variables: {} }));
    L.s.clock.advance(10 * 60_000 + 1);
    refused(
      await call("svc_run_task_complete", { taskId, variables: {}, confirmationToken: p.confirmationToken }),
      /expired/,
    );
  });
});
