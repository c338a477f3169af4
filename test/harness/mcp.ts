import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startTestServer, type TestServer } from "./server";
// After ./server: the services' schemas must load after @hono/zod-openapi has extended zod (the app imports it first).
import { toolNamed } from "../../app/services/tools/registry";

/** A test service listening on 127.0.0.1 (MCP clients speak real HTTP). */
export async function startListening(env: Record<string, string> = {}) {
  const s = await startTestServer({ env });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 255,
    fetch: (req, srv) => s.app.fetch(req, { server: srv }),
  });
  const base = `http://127.0.0.1:${server.port}`;
  return {
    s,
    base,
    url: new URL(`${base}/api/a/mcp`),
    async close() {
      server.stop(true);
      await s.close();
    },
  };
}

export const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString("base64")}`;

/** An SDK client connected with HTTP Basic and, when given, X-Tenant-ID. */
export async function mcpClient(url: URL, cred: { email: string; password: string; tenant?: string }) {
  const headers: Record<string, string> = { authorization: basic(cred.email, cred.password) };
  if (cred.tenant) headers["x-tenant-id"] = cred.tenant;
  const client = new Client({ name: "test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC `initialize` POST (tests that inspect the HTTP answer itself: status, headers, session id). */
export const rawInitialize = (url: URL, headers: Record<string, string>, protocolVersion = "2025-06-18") =>
  fetch(url, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    }),
  });

export type Listening = Awaited<ReturnType<typeof startListening>>;
export type { TestServer };

/** A tool's structured answer as tests read it: any shape, checked by the assertions that use it. */
// biome-ignore lint/suspicious/noExplicitAny: tests reach into tool answers of many shapes
export type Structured = Record<string, any>;

export type ToolResult = {
  isError?: boolean;
  structuredContent?: Structured;
  content: { type: string; text: string }[];
};

/**
 * Calls tools and records, per tool, whether it answered a success and a refusal, so a test file can prove that each
 * tool it covers was exercised both ways (issue 13: every tool at least once with a successful and a refused call).
 */
export class ToolCalls {
  readonly succeeded = new Set<string>();
  readonly refused = new Set<string>();

  async call(c: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    const r = (await c.callTool({ name, arguments: args })) as ToolResult;
    (r.isError ? this.refused : this.succeeded).add(name);
    // Every success's structured answer must be what the tool declares (its output schema, checked with zod; extra properties are allowed, as the published schema says).
    if (!r.isError) {
      const declared = toolNamed(name);
      if (!declared) throw new Error(`tool ${name} answered but is not in the registry`);
      const checked = declared.output.safeParse(r.structuredContent);
      if (!checked.success)
        throw new Error(`tool ${name} answered outside its output schema: ${checked.error.message}`);
    }
    return r;
  }

  /** The tools of `names` not yet seen answering both a success and a refusal. */
  missing(names: readonly string[]): string[] {
    return names.filter((n) => !this.succeeded.has(n) || !this.refused.has(n));
  }
}

/** The structured answer of a successful call (a refusal throws with its text). */
export const okOf = (r: ToolResult): Structured => {
  if (r.isError) throw new Error(`unexpected tool error: ${r.content[0]?.text}`);
  return r.structuredContent as Structured;
};

/** The text of a refused call (a success throws). */
export const refusalOf = (r: ToolResult): string => {
  if (!r.isError) throw new Error(`expected a tool error, got ${JSON.stringify(r.structuredContent)}`);
  return r.content[0]?.text ?? "";
};

/**
 * Which test file proves each tool both ways; the 38 names are the spec's table ("MCP server (/a/mcp)"), copied here
 * so the tests run without the spec beside the clone. mcp.test.ts checks the union is exactly what tools/list names.
 */
export const MCP_TOOLS_BY_FILE = {
  "mcp-policy.test.ts": ["svc_run_start", "svc_run_task_claim", "svc_run_task_preview", "svc_run_task_complete"],
  "mcp-tools.test.ts": [
    "svc_form_list",
    "svc_form_get",
    "svc_form_field_types",
    "svc_form_create",
    "svc_form_update",
    "svc_form_versions",
    "svc_form_publish",
    "svc_process_list",
    "svc_process_versions",
    "svc_process_get_xml",
    "svc_process_deploy",
    "svc_kb_list",
    "svc_kb_create",
    "svc_kb_add_text",
    "svc_kb_link_process",
    "svc_cms_field_types",
    "svc_cms_collection_list",
    "svc_cms_collection_create",
    "svc_cms_records_load",
    "svc_cms_records_query",
    "svc_run_startable_list",
    "svc_run_my_tasks",
    "svc_run_task_get",
    "svc_run_attach_text",
    "svc_run_instance_get",
  ],
  "mcp-ai-tools.test.ts": [
    "svc_ai_model_list",
    "svc_process_validate",
    "svc_agent_list",
    "svc_agent_create",
    "svc_agent_attach_to_step",
    "svc_agent_suggest_knowledge",
    "svc_process_doc_get",
    "svc_process_doc_propose",
    "svc_run_why_failed",
  ],
} as const;

/** The review process of the MCP tests (its key is `KEY`, replaced per test): a task, then a condition on `amount`. */
export const REVIEW_FLOW = `<?xml version="1.0" encoding="UTF-8"?>
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
