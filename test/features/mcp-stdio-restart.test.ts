import { afterAll, beforeAll, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { adminTokenOf, ROOT, SPAWN_SA, spawnServer, type SpawnedServer } from "../harness/spawned";
import { okOf, refusalOf, type ToolResult } from "../harness/mcp";

// The stdio proxy under a real SDK stdio client while the real service (a child process) is restarted on the same
// port: the proxy must start a new session by itself, resend read-only calls and refuse to resend writes.

const BPMN = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="orders" isExecutable="true"><startEvent id="s"/><sequenceFlow id="f" sourceRef="s" targetRef="e"/><endEvent id="e"/></process>
</definitions>`;

let port = 0;
let dataDir = "";
let service: SpawnedServer;
let client: Client;
let stderr = "";

async function startService() {
  service = await spawnServer({ dataDir: dataDir || undefined, env: { PORT: String(port) } });
  dataDir = service.dataDir;
}
async function stopService() {
  service.proc.kill("SIGKILL");
  await service.exited;
}
const call = async (name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as ToolResult;

beforeAll(async () => {
  const probe = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
  port = probe.port ?? 0;
  probe.stop(true);
  await startService();
  await adminTokenOf(service.base, "acme");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["app/mcp/stdio.ts", "--url", service.base, "--tenant", "acme"],
    cwd: ROOT,
    env: { ...process.env, SVC_MCP_EMAIL: SPAWN_SA.email, SVC_MCP_PASSWORD: SPAWN_SA.password } as Record<
      string,
      string
    >,
    stderr: "pipe",
  });
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  client = new Client({ name: "desktop", version: "1" });
  await client.connect(transport);
  await client.listTools();
}, 60_000);
afterAll(async () => {
  await client?.close();
  service?.proc.kill("SIGKILL");
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

test("a read-only call after the service restarted is answered on a new session, and stderr says so", async () => {
  expect(okOf(await call("svc_process_list")).items).toEqual([]);
  await stopService();
  await startService();
  const listed = await call("svc_process_list");
  expect(okOf(listed).items).toEqual([]);
  expect(stderr).toMatch(
    /tools\/call svc_process_list: the service answered 404 for the session; starting a new session/,
  );
  expect(stderr).toMatch(/sent again on the new session \(read-only\)/);
}, 60_000);

test("a call that changes data is not resent after a renewal: a tool error says the session was renewed", async () => {
  await stopService();
  await startService();
  const refused = await call("svc_process_deploy", { fileName: "orders.bpmn", xml: BPMN });
  expect(refusalOf(refused)).toMatch(/session with the service was renewed .*'svc_process_deploy' changes data/);
  // Nothing was deployed by the refused call; the user's second call goes through on the new session.
  expect(okOf(await call("svc_process_list")).items).toEqual([]);
  okOf(await call("svc_process_deploy", { fileName: "orders.bpmn", xml: BPMN }));
  const keys = okOf(await call("svc_process_list")).items.map((d: { key: string }) => d.key);
  expect(keys).toEqual(["orders"]);
}, 60_000);

test("a call made while the service is down waits for it to come back (bounded retries with backoff)", async () => {
  await stopService();
  const pending = call("svc_process_list");
  await Bun.sleep(300);
  await startService();
  const keys = okOf(await pending).items.map((d: { key: string }) => d.key);
  expect(keys).toEqual(["orders"]);
  expect(stderr).toMatch(/the connection to the service failed/);
  expect(stderr).toMatch(/service unreachable \(attempt 1\/8\); retrying in 250 ms/);
}, 60_000);

test("a wrong credential is not retried: the proxy says why on stderr and exits", async () => {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ["app/mcp/stdio.ts", "--url", service.base, "--tenant", "acme"],
    cwd: ROOT,
    env: { ...process.env, SVC_MCP_EMAIL: SPAWN_SA.email, SVC_MCP_PASSWORD: "wrong-password-1" } as Record<
      string,
      string
    >,
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    err += chunk.toString();
  });
  const c = new Client({ name: "desktop", version: "1" });
  // The proxy cannot open its first session, says why on stderr and exits: the client sees the connection close.
  await expect(c.connect(transport)).rejects.toThrow();
  expect(err).toMatch(/could not start a session \(attempt 1\/8\)/);
  await c.close();
}, 60_000);
