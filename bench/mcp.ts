// bench:mcp — tools/call round trips per second over /api/a/mcp against the same operations over REST, in one run.
// Target (issue 13): ≥ 50% of the REST rate for svc_run_my_tasks and for preview + complete, each against the same
// operation over REST. The other rows are printed for what they show, without the target.
//   svc_run_my_tasks {size: 20}                       vs  GET /api/a/tasks?size=20 of a USER (their inbox: the same
//                                                         service operation, on an inbox of the same shape)
//   svc_run_my_tasks {size: 20}                       vs  GET /api/a/tasks?mine=true&size=20 (a lighter operation)
//   svc_run_task_get                                  vs  GET /api/a/tasks/{id} (one service operation: transport cost)
//   svc_run_task_preview + svc_run_task_complete      vs  GET /api/a/tasks/{id} + POST /api/a/tasks/{id}/complete
// (a task read then its completion: REST has no preview, the task read is its nearest read before completing).
// svc_run_my_tasks reads the caller's whole inbox (assigned, offered, their process roles): the inbox query a USER's
// GET /a/tasks runs, which is its REST peer (an Admin's GET /a/tasks lists the whole tenant). mine=true reads the
// assigned-tasks index only: that row is printed too, and measures a heavier operation against a lighter one.
// Each MCP worker has its own session (HTTP Basic); each REST worker sends a Bearer token with fetch. The MCP side is
// driven the way the REST side is, by JSON-RPC POSTs with fetch (support/mcp-wire-client.ts): the ratio compares the
// server's two surfaces. The same loops through the SDK's `Client` are printed too (BENCH_SDK_CLIENT=0 leaves them
// out): that client's own work per answer (result validation, an SSE parser per response) runs on the same cores.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { closedLoopsInTurn, fmt, type LoopResult } from "./support/closed-loop";
import { startChild } from "./support/load";
import { McpWireClient, type ToolResult } from "./support/mcp-wire-client";

// biome-ignore lint/suspicious/noExplicitAny: answers of several routes and tools, checked where they are used
type Json = any;

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const workers = Number(process.env.BENCH_WORKERS ?? 8);
// Claimed tasks per completion phase: enough for 7 s at 2,000 pairs/s (an empty queue counts as errors and would
// make that side look slower than it is).
const TASKS = Number(process.env.BENCH_TASKS ?? 15000);
const withSdkClient = process.env.BENCH_SDK_CLIENT !== "0";
// Each measure runs in this many turns, in alternation with its peers (closedLoopsInTurn).
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);

const FLOW = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="benchmcp" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="review"/>
    <userTask id="review" name="Review"/><sequenceFlow id="f2" sourceRef="review" targetRef="gw"/>
    <exclusiveGateway id="gw" default="f4"/>
    <sequenceFlow id="f3" sourceRef="gw" targetRef="yes"><conditionExpression>\${amount &gt; 100}</conditionExpression></sequenceFlow>
    <sequenceFlow id="f4" sourceRef="gw" targetRef="no"/>
    <endEvent id="yes"/><endEvent id="no"/>
  </process>
</definitions>`;

const svc = await startChild<{ base: string; token: string; userToken: string; userId: string }>(
  "bench/support/platform-server.ts",
);
const clients: Client[] = [];
const wires: McpWireClient[] = [];
try {
  const { base, token, userToken, userId } = svc.info;
  const auth = { authorization: `Bearer ${token}` };
  const json = { ...auth, "content-type": "application/json" };
  const asUser = { authorization: `Bearer ${userToken}`, "content-type": "application/json" };
  const rest = async (method: string, path: string, body?: unknown, headers: Record<string, string> = json) => {
    const r = await fetch(base + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return r.json() as Promise<Json>;
  };

  const fd = new FormData();
  fd.append("file", new File([FLOW], "bench.bpmn"));
  const dep = await fetch(`${base}/api/a/definitions/deploy`, { method: "POST", headers: auth, body: fd });
  if (dep.status !== 200) throw new Error(`deploy: ${await dep.text()}`);
  await rest("PUT", "/api/a/definitions/benchmcp/config", { mcpPolicy: "START_AND_COMPLETE" });

  /** Starts `n` instances and claims their task (8 at a time): the queue a completion phase consumes. */
  const claimedTasks = async (n: number) => {
    const ids: string[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (ids.length < n) {
          const started = await rest("POST", "/api/a/instances", { definitionKey: "benchmcp" });
          const id = started.activeTasks[0].id as string;
          ids.push(id);
          await rest("POST", `/api/a/tasks/${id}/claim`);
        }
      }),
    );
    return ids;
  };

  const url = new URL("/api/a/mcp", base);
  const basic = `Basic ${Buffer.from("admin@bench.test:bench-password").toString("base64")}`;
  const headers = { authorization: basic, "x-tenant-id": "bench" };
  for (let i = 0; i < workers; i++) {
    wires.push(await McpWireClient.connect(url.href, headers));
    if (!withSdkClient) continue;
    const c = new Client({ name: `bench-${i}`, version: "1" });
    await c.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
    clients.push(c);
  }
  /** A tools/call by worker `w`'s wire client, or by its SDK Client. */
  type Tool = (w: number, name: string, args: Record<string, unknown>) => Promise<Record<string, Json>>;
  const toolVia =
    (sdk: boolean): Tool =>
    async (w, name, args) => {
      const r = sdk
        ? ((await clients[w].callTool({ name, arguments: args })) as ToolResult)
        : await wires[w].callTool(name, args);
      if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
      return r.structuredContent as Record<string, Json>;
    };
  const tool = toolVia(false);

  // An inbox of 50 claimed tasks for the my-tasks phase, and one of 50 tasks handed to the USER for its REST peer.
  const inboxIds = await claimedTasks(50);
  for (const id of await claimedTasks(50)) await rest("POST", `/api/a/tasks/${id}/delegate`, { userId });
  const userInbox = () => rest("GET", "/api/a/tasks?size=20", undefined, asUser);
  const mineRest = await rest("GET", "/api/a/tasks?mine=true&size=20");
  const mineMcp = await tool(0, "svc_run_my_tasks", { size: 20 });
  const inboxRest = await userInbox();
  if (mineRest.length !== 20 || mineMcp.items.length !== 20 || inboxRest.length !== 20)
    throw new Error("inbox setup failed");
  if (
    !mineMcp.items.every((t: Json) => inboxIds.includes(t.id)) ||
    inboxRest.some((t: Json) => inboxIds.includes(t.id))
  )
    throw new Error("the two inboxes overlap");

  // [name, MCP, REST, MCP through the SDK Client, null when the 50% target applies or why it does not]
  const rows: Array<[string, LoopResult, LoopResult, LoopResult | null, string | null]> = [];
  /** MCP, REST and (when asked) MCP through the SDK Client, in turns of a second or two, so they share the drift. */
  const pair = async (
    name: string,
    mcpStep: (w: number, call: Tool) => Promise<void>,
    restStep: (w: number) => Promise<void>,
    noTarget: string | null = null,
  ) => {
    const viaWire = (w: number) => mcpStep(w, tool);
    const viaSdk = (w: number) => mcpStep(w, toolVia(true));
    const steps = withSdkClient ? [viaWire, restStep, viaSdk] : [viaWire, restStep];
    await closedLoopsInTurn(steps, { workers, seconds: steps.length, rounds: 1 }); // warm-up
    const [m, r, sdk] = await closedLoopsInTurn(steps, { workers, seconds, rounds: ROUNDS });
    rows.push([name, m, r, sdk ?? null, noTarget]);
  };
  const myTasks = async (w: number, call: Tool) => {
    if ((await call(w, "svc_run_my_tasks", { size: 20 })).items.length !== 20) throw new Error("short page");
  };
  await pair("my tasks (same op)", myTasks, async () => {
    if ((await userInbox()).length !== 20) throw new Error("short page");
  });
  await pair(
    "my tasks vs mine=true",
    myTasks,
    async () => {
      if ((await rest("GET", "/api/a/tasks?mine=true&size=20")).length !== 20) throw new Error("short page");
    },
    "REST runs a lighter operation",
  );

  // The same service operation on both sides (taskDetail): the difference is the transport alone.
  await pair(
    "task read (same op)",
    async (w, call) => {
      if (!(await call(w, "svc_run_task_get", { taskId: inboxIds[w % inboxIds.length] })).id)
        throw new Error("no task");
    },
    async (w) => {
      if (!(await rest("GET", `/api/a/tasks/${inboxIds[w % inboxIds.length]}`)).id) throw new Error("no task");
    },
    "the transport alone; the issue's target names the other two operations",
  );

  // Completions: the 50 inbox tasks stay; each phase consumes its own queue of claimed tasks.
  const mcpQueue = await claimedTasks(withSdkClient ? 2 * TASKS : TASKS); // the SDK Client's loop consumes it too
  const restQueue = await claimedTasks(TASKS);
  const vars = { amount: 150, note: "checked" };
  await pair(
    "preview + complete",
    async (w, call) => {
      const taskId = mcpQueue.pop();
      if (!taskId) throw new Error("MCP queue empty: raise BENCH_TASKS");
      const p = await call(w, "svc_run_task_preview", { taskId, variables: vars });
      await call(w, "svc_run_task_complete", { taskId, variables: vars, confirmationToken: p.confirmationToken });
    },
    async () => {
      const taskId = restQueue.pop();
      if (!taskId) throw new Error("REST queue empty: raise BENCH_TASKS");
      await rest("GET", `/api/a/tasks/${taskId}`);
      await rest("POST", `/api/a/tasks/${taskId}/complete`, { variables: vars });
    },
  );

  console.log(
    `${workers} workers, ${seconds} s per measure in ${ROUNDS} turns alternating with its peers; rates in operations/s (a pair counts once)`,
  );
  for (const [name, m, r, sdk, noTarget] of rows) {
    console.log(`${name.padEnd(22)} MCP  ${fmt(m)}`);
    console.log(`${"".padEnd(22)} REST ${fmt(r)}`);
    const ratio = m.perSecond / r.perSecond;
    console.log(
      `${"".padEnd(22)} MCP/REST ${(ratio * 100).toFixed(0)}%  ${noTarget ? `(no target: ${noTarget})` : `(target ≥ 50%) ${ratio >= 0.5 ? "ok" : "BELOW"}`}`,
    );
    if (sdk)
      console.log(
        `${"".padEnd(22)} through the SDK Client: ${fmt(sdk)}  (${((sdk.perSecond / r.perSecond) * 100).toFixed(0)}% of REST)`,
      );
  }
  console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
} finally {
  for (const c of clients) await c.close().catch(() => {});
  for (const c of wires) await c.close();
  svc.proc.kill();
}
