import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";
import {
  basic,
  type Listening,
  MCP_TOOLS_BY_FILE,
  mcpClient,
  okOf,
  rawInitialize,
  refusalOf,
  startListening,
  ToolCalls,
  type ToolResult,
} from "../harness/mcp";

// The form, process, knowledge, CMS and run tools over a listening service; each answers at least one success and
// one refusal (checked at the end), and another tenant's ids answer not found.

const BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="orders" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e"/></process>
</definitions>`;
const WITH_TASK = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="review" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Check"/><sequenceFlow id="g" sourceRef="t" targetRef="e"/><endEvent id="e"/></process>
</definitions>`;

let L: Listening;
let mcp: Client;
let other: Client;
let user: Client;
let adminToken: string;
const calls = new ToolCalls();
const call = (name: string, args: Record<string, unknown> = {}, c = mcp) => calls.call(c, name, args);
/** A call outside this file's tools (set-up through another tool). */
const untracked = async (name: string, args: Record<string, unknown> = {}) =>
  (await mcp.callTool({ name, arguments: args })) as ToolResult;
/** What this file created in tenant acme, for the cross-tenant checks. */
const acmeIds: Record<string, string> = {};

beforeAll(async () => {
  L = await startListening();
  const sa = await saToken(L.s);
  const acme = await createTenant(L.s, "acme", sa);
  const beta = await createTenant(L.s, "beta", sa);
  const a = await userInTenant(L.s, acme, "ADMIN", sa);
  const b = await userInTenant(L.s, beta, "ADMIN", sa);
  const u = await userInTenant(L.s, acme, "USER", sa);
  adminToken = a.token;
  mcp = await mcpClient(L.url, { email: a.email, password: a.password, tenant: "acme" });
  other = await mcpClient(L.url, { email: b.email, password: b.password, tenant: "beta" });
  user = await mcpClient(L.url, { email: u.email, password: u.password, tenant: "acme" });
});
afterAll(async () => {
  for (const c of [mcp, other, user]) await c?.close();
  await L?.close();
});

describe("processes and forms", () => {
  test("process tools: deploy (not published), list, versions, XML; each refuses what REST refuses", async () => {
    const d = okOf(await call("svc_process_deploy", { fileName: "orders.bpmn", xml: BPMN }));
    expect(d.definitions[0]).toMatchObject({ key: "orders", version: 1 });
    expect(refusalOf(await call("svc_process_deploy", { fileName: "x.txt", xml: "<x/>" }))).toMatch(
      /Unsupported file 'x.txt'/,
    );
    const list = okOf(await call("svc_process_list"));
    expect(list.items[0]).toMatchObject({ key: "orders", publishedVersion: null });
    expect(refusalOf(await call("svc_process_list", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
    const v = okOf(await call("svc_process_versions", { key: "orders" }));
    acmeIds.definitionId = v.items[0].definitionId;
    expect(refusalOf(await call("svc_process_versions", { key: "nope" }))).toMatch(/Definition 'nope' not found/);
    const xml = okOf(await call("svc_process_get_xml", { key: "orders", definitionId: acmeIds.definitionId }));
    expect(xml.xml).toContain('id="orders"');
    expect(refusalOf(await call("svc_process_get_xml", { key: "orders", definitionId: "no-such-id" }))).toMatch(
      /not found/i,
    );
  });

  test("form tools: created, saved, published, read; unknown forms, bad schemas and blank keys are refused", async () => {
    expect(okOf(await call("svc_form_field_types")).fieldTypes).toContain("currency");
    expect(refusalOf(await call("svc_form_field_types", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
    const schema = { fields: [{ key: "amount", type: "currency", required: true }] };
    okOf(await call("svc_form_create", { processKey: "orders", key: "f1", name: "F", schema }));
    const bad = { processKey: "orders", key: "f2", name: "F", schema: { fields: [{ key: "x", type: "nope" }] } };
    expect(refusalOf(await call("svc_form_create", bad))).toMatch(/nope/);
    okOf(await call("svc_form_update", { processKey: "orders", key: "f1", schema }));
    expect(refusalOf(await call("svc_form_update", { processKey: "orders", key: "ghost", schema }))).toMatch(
      /not found/i,
    );
    expect(okOf(await call("svc_form_versions", { processKey: "orders", key: "f1" })).items).toHaveLength(2);
    expect(refusalOf(await call("svc_form_versions", { processKey: "orders", key: "ghost" }))).toMatch(/not found/i);
    expect(okOf(await call("svc_form_publish", { processKey: "orders", key: "f1" })).publishedVersionNum).toBe(2);
    expect(
      refusalOf(await call("svc_form_publish", { processKey: "orders", key: "f1", versionId: "no-such-version" })),
    ).toMatch(/Form 'f1' has no version no-such-version/);
    expect(okOf(await call("svc_form_get", { processKey: "orders", key: "f1" })).key).toBe("f1");
    expect(refusalOf(await call("svc_form_get", { processKey: "orders", key: "ghost" }))).toMatch(/not found/i);
    expect(okOf(await call("svc_form_list", { processKey: "orders" })).items).toHaveLength(1);
    expect(refusalOf(await call("svc_form_list", { processKey: "" }))).toMatch(/processKey/);
  });
});

describe("knowledge and CMS", () => {
  test("knowledge tools: create, add text (2,000,000 characters at most), link to a process", async () => {
    const kb = okOf(await call("svc_kb_create", { name: "Manual" }));
    acmeIds.kb = kb.id;
    expect(refusalOf(await call("svc_kb_create", { name: "" }))).toMatch(/name/);
    const added = okOf(await call("svc_kb_add_text", { id: kb.id, title: "Intro", text: "Hello knowledge" }));
    expect(added).toMatchObject({ status: "PENDING", fileName: "Intro.txt" });
    const big = await call("svc_kb_add_text", { id: kb.id, title: "Big", text: "x".repeat(2_000_001) });
    expect(refusalOf(big)).toMatch(/at most 2,000,000 characters/);
    const exact = await call("svc_kb_add_text", { id: kb.id, title: "Exact", text: "y".repeat(2_000_000) });
    expect(okOf(exact).fileName).toBe("Exact.txt");
    expect(okOf(await call("svc_kb_list")).items).toHaveLength(1);
    expect(refusalOf(await call("svc_kb_list", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
    okOf(await call("svc_kb_link_process", { definitionKey: "orders", id: kb.id }));
    expect(refusalOf(await call("svc_kb_link_process", { definitionKey: "orders", id: kb.id }))).toMatch(/already/i);
    expect(refusalOf(await call("svc_kb_link_process", { definitionKey: "orders", id: "ghost" }))).toMatch(
      /Knowledge base ghost not found/,
    );
  });

  test("CMS tools: collection, a load above 5,000 records is refused naming the limit and writes nothing", async () => {
    const types = okOf(await call("svc_cms_field_types"));
    expect(types.confidentialityLevels).toEqual(["PUBLIC", "SECRET", "TOP_SECRET"]);
    expect(refusalOf(await call("svc_cms_field_types", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
    const fields = [
      { name: "sku", type: "text" },
      { name: "price", type: "number" },
    ];
    const c = okOf(await call("svc_cms_collection_create", { name: "prices", fields, confidentiality: "PUBLIC" }));
    acmeIds.collection = c.id;
    const badType = { name: "bad", fields: [{ name: "x", type: "hologram" }], confidentiality: "PUBLIC" };
    expect(refusalOf(await call("svc_cms_collection_create", badType))).toMatch(/type/);
    const many = Array.from({ length: 5001 }, (_, i) => ({ sku: `s${i}`, price: i }));
    const over = await call("svc_cms_records_load", { collectionId: c.id, records: many });
    expect(refusalOf(over)).toMatch(/at most 5000 records/);
    expect(okOf(await call("svc_cms_collection_list")).items[0].recordCount).toBe(0);
    expect(refusalOf(await call("svc_cms_collection_list", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
    const loaded = okOf(await call("svc_cms_records_load", { collectionId: c.id, records: many.slice(0, 5000) }));
    expect(loaded.inserted).toBe(5000);
    const filter = { price: { gte: 4998 } };
    const q = okOf(await call("svc_cms_records_query", { collectionId: c.id, filter, size: 10 }));
    expect(q.totalElements).toBe(2);
    expect(refusalOf(await call("svc_cms_records_query", { collectionId: c.id, filter: { ghost: 1 } }))).toMatch(
      /ghost/,
    );
  });
});

describe("running", () => {
  test("run tools: startable list, my tasks, task, instance and attachments; each refuses a bad or unknown id", async () => {
    const deployed = okOf(await untracked("svc_process_deploy", { fileName: "r.bpmn", xml: WITH_TASK }));
    expect(deployed.definitions[0].key).toBe("review");
    expect(okOf(await call("svc_run_startable_list")).items).toContainEqual(
      expect.objectContaining({ key: "review", mcpPolicy: "NONE", canStart: false }),
    );
    expect(refusalOf(await call("svc_run_startable_list", {}, user))).toMatch(/ADMIN role or SUPER_ADMIN/);
    // Started and claimed over REST (the policy gates MCP starts and completions, not what the tools read).
    const started = await L.s.req("POST", "/api/a/instances", {
      token: adminToken,
      json: { definitionKey: "review", businessKey: "R-1" },
    });
    expect(started.status).toBe(201);
    const inst = (await started.json()) as { id: string; activeTasks: { id: string }[] };
    acmeIds.instance = inst.id;
    acmeIds.task = inst.activeTasks[0].id;
    expect((await L.s.req("POST", `/api/a/tasks/${acmeIds.task}/claim`, { token: adminToken })).status).toBe(200);

    const mine = okOf(await call("svc_run_my_tasks"));
    expect(mine.items).toEqual([expect.objectContaining({ id: acmeIds.task, name: "Check", businessKey: "R-1" })]);
    expect(refusalOf(await call("svc_run_my_tasks", { size: 0 }))).toMatch(/size/);
    const task = okOf(await call("svc_run_task_get", { taskId: acmeIds.task }));
    expect(task).toMatchObject({ id: acmeIds.task, name: "Check", state: "OPEN", instanceId: inst.id });
    expect(refusalOf(await call("svc_run_task_get", { taskId: "nope" }))).toMatch(/not found/i);
    const got = okOf(await call("svc_run_instance_get", { instanceId: inst.id }));
    expect(got).toMatchObject({ id: inst.id, definitionKey: "review", businessKey: "R-1", ended: false });
    expect(refusalOf(await call("svc_run_instance_get", { instanceId: "nope" }))).toMatch(/not found/i);
    const att = okOf(await call("svc_run_attach_text", { instanceId: inst.id, fileName: "note", text: "Checked." }));
    expect(att).toMatchObject({ fileName: "note.txt", size: 8, version: 1 });
    const listed = await L.s.req("GET", `/api/a/attachments?entityType=PROCESS_INSTANCE&entityId=${inst.id}`, {
      token: adminToken,
    });
    expect(JSON.stringify(await listed.json())).toContain("note.txt");
    const nowhere = { instanceId: "nope", fileName: "n", text: "t" };
    expect(refusalOf(await call("svc_run_attach_text", nowhere))).toMatch(/not found/i);
  });
});

test("another tenant's ids answer not found", async () => {
  expect(refusalOf(await call("svc_form_get", { processKey: "orders", key: "f1" }, other))).toMatch(/not found/i);
  expect(refusalOf(await call("svc_process_versions", { key: "orders" }, other))).toMatch(/not found/i);
  const xmlArgs = { key: "orders", definitionId: acmeIds.definitionId };
  expect(refusalOf(await call("svc_process_get_xml", xmlArgs, other))).toMatch(/not found/i);
  expect(refusalOf(await call("svc_kb_add_text", { id: acmeIds.kb, title: "t", text: "t" }, other))).toMatch(
    /not found/i,
  );
  expect(refusalOf(await call("svc_cms_records_query", { collectionId: acmeIds.collection }, other))).toMatch(
    /not found/i,
  );
  expect(refusalOf(await call("svc_run_instance_get", { instanceId: acmeIds.instance }, other))).toMatch(/not found/i);
  expect(refusalOf(await call("svc_run_task_get", { taskId: acmeIds.task }, other))).toMatch(/not found/i);
  const attach = { instanceId: acmeIds.instance, fileName: "n", text: "t" };
  expect(refusalOf(await call("svc_run_attach_text", attach, other))).toMatch(/not found/i);
});

test("a tool's answer, over as soon as it is written, comes as one event-stream body of known length", async () => {
  const auth = basic("admin@test.local", "admin-password-1");
  const init = await rawInitialize(L.url, { authorization: auth, "x-tenant-id": "acme" });
  const headers = {
    authorization: auth,
    "x-tenant-id": "acme",
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    "mcp-session-id": init.headers.get("mcp-session-id") ?? "",
    "mcp-protocol-version": "2025-06-18",
  };
  expect(init.headers.get("content-length")).not.toBeNull();
  await init.text();
  const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "svc_run_my_tasks", arguments: {} } };
  const res = await fetch(L.url, { method: "POST", headers, body: JSON.stringify(call) });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  expect(res.headers.get("x-accel-buffering")).toBe("no");
  const body = await res.text();
  expect(Number(res.headers.get("content-length"))).toBe(new TextEncoder().encode(body).length);
  const data = body.split("\n").find((l) => l.startsWith("data:")) ?? "";
  expect(JSON.parse(data.slice(5))).toMatchObject({
    id: 2,
    result: { structuredContent: { items: expect.any(Array) } },
  });
});

test("GET opens the listening event stream at once; DELETE ends the session", async () => {
  const auth = basic("admin@test.local", "admin-password-1");
  const init = await rawInitialize(L.url, { authorization: auth });
  const sid = init.headers.get("mcp-session-id") ?? "";
  await init.text();
  const stream = await fetch(L.url, {
    headers: {
      authorization: auth,
      accept: "text/event-stream",
      "mcp-session-id": sid,
      "mcp-protocol-version": "2025-06-18",
    },
  });
  expect(stream.status).toBe(200);
  expect(stream.headers.get("content-type")).toContain("text/event-stream");
  expect(stream.headers.get("x-accel-buffering")).toBe("no");
  // The stream opens at once with a comment frame (not at the first 15 s keep-alive).
  const reader = stream.body?.getReader();
  const first = await reader?.read();
  expect(new TextDecoder().decode(first?.value)).toBe(": stream open\n\n");
  await reader?.cancel();
  const end = await fetch(L.url, { method: "DELETE", headers: { authorization: auth, "mcp-session-id": sid } });
  expect(end.status).toBe(200);
  const after = await fetch(L.url, {
    headers: { authorization: auth, accept: "text/event-stream", "mcp-session-id": sid },
  });
  expect(after.status).toBe(404);
});

test("the stdio entry lists and calls a tool through the running server", async () => {
  const { Client: StdioClient } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["app/mcp/stdio.ts", "--url", L.base, "--tenant", "acme"],
    cwd: `${import.meta.dir}/../..`,
    env: { ...process.env, SVC_MCP_EMAIL: "admin@test.local", SVC_MCP_PASSWORD: "admin-password-1" } as Record<
      string,
      string
    >,
    stderr: "pipe",
  });
  const c = new StdioClient({ name: "desktop", version: "1" });
  await c.connect(transport);
  const { tools } = await c.listTools();
  expect(tools).toHaveLength(38);
  const listed = (await c.callTool({ name: "svc_process_list", arguments: {} })) as ToolResult;
  expect(okOf(listed).items.map((d: { key: string }) => d.key)).toContain("orders");
  // A tool error passes through the proxy as a tool error, with the server's message.
  const refused = (await c.callTool({ name: "svc_process_versions", arguments: { key: "nope" } })) as ToolResult;
  expect(refusalOf(refused)).toMatch(/Definition 'nope' not found/);
  await c.close();
});

test("each tool of this file answered a success and a refusal", () => {
  expect(calls.missing(MCP_TOOLS_BY_FILE["mcp-tools.test.ts"])).toEqual([]);
});
