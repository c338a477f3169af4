import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { basic, type Listening, mcpClient, rawInitialize, startListening } from "../harness/mcp";
import { createTenant, saToken, userInTenant } from "../harness/fixtures";

const BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="orders" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e"/></process>
</definitions>`;

let L: Listening;
let mcp: Client;
let other: Client;
type Result = { isError?: boolean; structuredContent?: Record<string, any>; content: { text: string }[] };
const call = async (name: string, args: Record<string, unknown> = {}, c = mcp) =>
  (await c.callTool({ name, arguments: args })) as Result;
const ok = (r: Result) => {
  if (r.isError) throw new Error(r.content[0]?.text);
  return r.structuredContent as Record<string, any>;
};

beforeAll(async () => {
  L = await startListening();
  const sa = await saToken(L.s);
  const acme = await createTenant(L.s, "acme", sa);
  const beta = await createTenant(L.s, "beta", sa);
  const a = await userInTenant(L.s, acme, "ADMIN", sa);
  const b = await userInTenant(L.s, beta, "ADMIN", sa);
  mcp = await mcpClient(L.url, { email: a.email, password: a.password, tenant: "acme" });
  other = await mcpClient(L.url, { email: b.email, password: b.password, tenant: "beta" });
});
afterAll(async () => {
  await mcp?.close();
  await other?.close();
  await L?.close();
});

test("process and form tools: deploy (not published), list, versions, XML; forms created, saved, published", async () => {
  const d = ok(await call("svc_process_deploy", { fileName: "orders.bpmn", xml: BPMN }));
  expect(d.definitions[0]).toMatchObject({ key: "orders", version: 1 });
  const list = ok(await call("svc_process_list"));
  expect(list.items[0]).toMatchObject({ key: "orders", publishedVersion: null });
  const v = ok(await call("svc_process_versions", { key: "orders" }));
  const xml = ok(await call("svc_process_get_xml", { key: "orders", definitionId: v.items[0].definitionId }));
  expect(xml.xml).toContain('id="orders"');
  expect((await call("svc_process_deploy", { fileName: "x.txt", xml: "<x/>" })).isError).toBe(true);

  expect(ok(await call("svc_form_field_types")).fieldTypes).toContain("currency");
  const schema = { fields: [{ key: "amount", type: "currency", required: true }] };
  ok(await call("svc_form_create", { processKey: "orders", key: "f1", name: "F", schema }));
  ok(await call("svc_form_update", { processKey: "orders", key: "f1", schema }));
  expect(ok(await call("svc_form_versions", { processKey: "orders", key: "f1" })).items).toHaveLength(2);
  expect(ok(await call("svc_form_publish", { processKey: "orders", key: "f1" })).publishedVersionNum).toBe(2);
  expect(ok(await call("svc_form_get", { processKey: "orders", key: "f1" })).key).toBe("f1");
  expect(ok(await call("svc_form_list", { processKey: "orders" })).items).toHaveLength(1);
  const bad = await call("svc_form_create", {
    processKey: "orders",
    key: "f2",
    name: "F",
    schema: { fields: [{ key: "x", type: "nope" }] },
  });
  expect(bad.isError).toBe(true);
  expect(ok(await call("svc_ai_model_list")).active).toBe(false);
});

test("another tenant's ids are not found", async () => {
  const r = await call("svc_form_get", { processKey: "orders", key: "f1" }, other);
  expect(r.isError).toBe(true);
  expect(r.content[0].text).toMatch(/not found/i);
  expect((await call("svc_process_versions", { key: "orders" }, other)).isError).toBe(true);
  expect((await call("svc_run_instance_get", { instanceId: "x" }, other)).isError).toBe(true);
});

test("CMS tools: collection, a load above 5,000 records is refused naming the limit and writes nothing", async () => {
  const types = ok(await call("svc_cms_field_types"));
  expect(types.confidentialityLevels).toEqual(["PUBLIC", "SECRET", "TOP_SECRET"]);
  const c = ok(
    await call("svc_cms_collection_create", {
      name: "prices",
      fields: [
        { name: "sku", type: "text" },
        { name: "price", type: "number" },
      ],
      confidentiality: "PUBLIC",
    }),
  );
  const many = Array.from({ length: 5001 }, (_, i) => ({ sku: `s${i}`, price: i }));
  const over = await call("svc_cms_records_load", { collectionId: c.id, records: many });
  expect(over.isError).toBe(true);
  expect(over.content[0].text).toMatch(/at most 5000 records/);
  expect(ok(await call("svc_cms_collection_list")).items[0].recordCount).toBe(0);
  expect(ok(await call("svc_cms_records_load", { collectionId: c.id, records: many.slice(0, 5000) })).inserted).toBe(
    5000,
  );
  const q = ok(await call("svc_cms_records_query", { collectionId: c.id, filter: { price: { gte: 4998 } }, size: 10 }));
  expect(q.totalElements).toBe(2);
});

test("knowledge tools: create, add text (2,000,000 characters at most), link to a process", async () => {
  const kb = ok(await call("svc_kb_create", { name: "Manual" }));
  const added = ok(await call("svc_kb_add_text", { id: kb.id, title: "Intro", text: "Hello knowledge" }));
  expect(added).toMatchObject({ status: "PENDING", fileName: "Intro.txt" });
  const big = await call("svc_kb_add_text", { id: kb.id, title: "Big", text: "x".repeat(2_000_001) });
  expect(big.isError).toBe(true);
  expect(big.content[0].text).toMatch(/at most 2,000,000 characters/);
  expect(ok(await call("svc_kb_list")).items).toHaveLength(1);
  ok(await call("svc_kb_link_process", { definitionKey: "orders", id: kb.id }));
  expect((await call("svc_kb_link_process", { definitionKey: "orders", id: kb.id })).isError).toBe(true);
});

test("run tools: startable list, my tasks, instance and attachments; GET opens the listening stream", async () => {
  expect(ok(await call("svc_run_startable_list")).items[0]).toMatchObject({ key: "orders", mcpPolicy: "NONE" });
  expect(ok(await call("svc_run_my_tasks")).items).toEqual([]);
  expect((await call("svc_run_task_get", { taskId: "nope" })).isError).toBe(true);
  expect((await call("svc_run_attach_text", { instanceId: "nope", fileName: "n", text: "t" })).isError).toBe(true);

  const init = await rawInitialize(L.url, { authorization: basic("admin@test.local", "admin-password-1") });
  const sid = init.headers.get("mcp-session-id")!;
  await init.text();
  const stream = await fetch(L.url, {
    headers: {
      authorization: basic("admin@test.local", "admin-password-1"),
      accept: "text/event-stream",
      "mcp-session-id": sid,
      "mcp-protocol-version": "2025-06-18",
    },
  });
  expect(stream.status).toBe(200);
  expect(stream.headers.get("content-type")).toContain("text/event-stream");
  await stream.body?.cancel();
  const end = await fetch(L.url, {
    method: "DELETE",
    headers: { authorization: basic("admin@test.local", "admin-password-1"), "mcp-session-id": sid },
  });
  expect(end.status).toBe(200);
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
  expect(tools.map((t) => t.name)).toContain("svc_process_list");
  const r = (await c.callTool({ name: "svc_process_list", arguments: {} })) as Result;
  expect(ok(r).items[0].key).toBe("orders");
  await c.close();
});
