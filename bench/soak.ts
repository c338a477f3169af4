// bench:soak — a small firm's whole operation, for an hour (issue 28). 50 tenants (BENCH_TENANTS), an open-loop mix at
// a fixed rate (BENCH_RATE operations/s, default 100) for BENCH_MINUTES (default 60): starts through a start form,
// claims and completions (each completion runs a script and a decision, then a timer of 5–120 s), task and instance
// lists, DMN evaluations, CMS writes and queries, attachment and knowledge uploads, knowledge searches, MCP tool calls,
// and every event delivered to a local webhook receiver that verifies each signature. Open loop: each operation is
// sent at its scheduled instant whatever the others are doing, and its latency counts from that instant, so a stall
// of the service shows in full (no coordinated omission). Printed each minute: operations done, p99, 5xx, /health max,
// resident memory (and its anonymous part) and open files. At the end: p99 per route, the memory by quarter, then
// the checks that nothing acknowledged was lost (soak-checks.ts). Targets: 0 5xx; every route's p99 < 50 ms;
// /health max < 100 ms; resident memory of the last quarter within 10 % of the first.
import { benchClient, fileForm, type Json } from "./support/bench-client";
import { startChild } from "./support/load";
import { McpWireClient } from "./support/mcp-wire-client";
import { type Acknowledged, runEndChecks } from "./support/soak-checks";
import { type SoakTenant, setUpTenants } from "./support/soak-setup";
import { SoakStats } from "./support/soak-stats";

const RATE = Number(process.env.BENCH_RATE ?? 100);
const MINUTES = Number(process.env.BENCH_MINUTES ?? 60);
const TENANTS = Number(process.env.BENCH_TENANTS ?? 50);

const svc = await startChild<{ base: string; dataDir: string }>("bench/support/platform-server.ts", {
  WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1",
  TRUST_PROXY: "1",
});
const receiver = await startChild<{ port: number }>("bench/support/soak-receiver.ts");
const { base } = svc.info;
const pid = svc.proc.pid as number;

const acked: Acknowledged = { starts: 0, completes: 0, claims: 0, records: 0, attachments: 0, documents: 0 };

interface Firm extends SoakTenant {
  tasks: string[];
  claimed: string[];
  instances: string[];
  mcp: McpWireClient;
}
const stats = new SoakStats();
let uploads = 0;
const text = (n: number) =>
  `# Note ${n}\n\n${"Orders ship within two working days; refunds need a receipt and the order number. ".repeat(20)}`;

try {
  console.log(`bench:soak — ${TENANTS} tenants, ${RATE} operations/s, ${MINUTES} min (${new Date().toISOString()})`);
  const t0 = performance.now();
  const tenants = await setUpTenants(base, TENANTS, receiver.info.port);
  const firms: Firm[] = [];
  for (const t of tenants) {
    const basic = `Basic ${Buffer.from(`${t.email}:${t.password}`).toString("base64")}`;
    const mcp = await McpWireClient.connect(`${base}/api/a/mcp`, {
      authorization: basic,
      "x-tenant-id": t.slug,
      "x-forwarded-for": t.ip,
    });
    firms.push({ ...t, tasks: [], claimed: [], instances: [], mcp });
  }
  console.log(`set-up: ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const client = benchClient(base);
  const req = (f: Firm, method: string, path: string, body?: unknown) => client.call(f.token, method, path, body, f.ip);
  const form = (fields: Record<string, string>, name: string, content: string) =>
    fileForm(name, content, fields, "text/markdown");
  /** Each operation: its route label, its weight in the mix, and what it sends (a status, for the tally). */
  type Op = [string, number, (f: Firm) => Promise<number>];
  const status = async (r: Promise<Response>, onOk?: (body: Record<string, unknown>) => void) => {
    const res = await r;
    if (onOk && res.status < 300) onOk((await res.json()) as Record<string, unknown>);
    else await res.arrayBuffer();
    return res.status;
  };
  const listTasks = (f: Firm) => status(req(f, "GET", "/api/a/tasks?size=20"));
  const ops: Op[] = [
    [
      "POST /a/instances (start form)",
      20,
      (f) =>
        status(
          req(f, "POST", "/api/a/instances", {
            definitionKey: "soak",
            variables: { amount: Math.floor(Math.random() * 2000), wait: `PT${5 + Math.floor(Math.random() * 116)}S` },
          }),
          (b) => {
            acked.starts++;
            f.instances.push(b.id as string);
            if (f.instances.length > 200) f.instances.shift();
            f.tasks.push((b.activeTasks as { id: string }[])[0].id);
          },
        ),
    ],
    [
      "POST /a/tasks/{id}/claim",
      10,
      (f) => {
        const id = f.tasks.shift();
        return id
          ? status(req(f, "POST", `/api/a/tasks/${id}/claim`), () => {
              acked.claims++;
              f.claimed.push(id);
            })
          : listTasks(f);
      },
    ],
    [
      "POST /a/tasks/{id}/complete",
      10,
      (f) => {
        const id = f.claimed.shift();
        return id
          ? status(req(f, "POST", `/api/a/tasks/${id}/complete`, { variables: { approved: true } }), () => {
              acked.completes++;
            })
          : listTasks(f);
      },
    ],
    ["GET /a/tasks", 10, listTasks],
    ["GET /a/instances", 5, (f) => status(req(f, "GET", "/api/a/instances?size=20"))],
    [
      "POST /a/decisions/{key}/evaluate",
      10,
      (f) => status(req(f, "POST", "/api/a/decisions/discount/evaluate", { variables: { amount: 250 } })),
    ],
    [
      "POST /a/cms/.../records",
      5,
      (f) =>
        status(
          req(f, "POST", `/api/a/cms/collections/${f.collectionId}/records`, {
            values: { sku: `N${uploads++}`, price: 5 },
          }),
          () => {
            acked.records++;
          },
        ),
    ],
    [
      "GET /a/cms/.../records",
      8,
      (f) => status(req(f, "GET", `/api/a/cms/collections/${f.collectionId}/records?size=20`)),
    ],
    [
      "POST /a/attachments",
      3,
      (f) =>
        status(
          req(
            f,
            "POST",
            "/api/a/attachments",
            form({ entityType: "GLOBAL", entityId: "soak" }, "a.md", text(uploads++)),
          ),
          () => {
            acked.attachments++;
          },
        ),
    ],
    [
      "POST /a/knowledge-bases/{id}/documents",
      1,
      (f) =>
        status(
          req(f, "POST", `/api/a/knowledge-bases/${f.baseId}/documents`, form({}, `n${uploads}.md`, text(uploads++))),
          () => {
            acked.documents++;
          },
        ),
    ],
    [
      "POST /a/knowledge-bases/{id}/search",
      5,
      (f) => status(req(f, "POST", `/api/a/knowledge-bases/${f.baseId}/search`, { query: "refund receipt", k: 3 })),
    ],
    [
      "MCP tools/call",
      8,
      async (f) => {
        const id = f.instances[Math.floor(Math.random() * f.instances.length)];
        const r = id
          ? await f.mcp.callTool("svc_run_instance_get", { instanceId: id })
          : await f.mcp.callTool("svc_run_my_tasks", { size: 20 });
        return r.isError ? 422 : 200;
      },
    ],
    [
      "GET /a/tasks/{id}",
      5,
      (f) => {
        const id = f.claimed[0] ?? f.tasks[0];
        return id ? status(req(f, "GET", `/api/a/tasks/${id}`)) : listTasks(f);
      },
    ],
  ];
  const totalWeight = ops.reduce((n, [, w]) => n + w, 0);
  const pick = () => {
    let x = Math.random() * totalWeight;
    for (const op of ops) if ((x -= op[1]) < 0) return op;
    return ops[0];
  };

  // /health every 250 ms, its own loop.
  let running = true;
  const health = (async () => {
    while (running) {
      const h0 = performance.now();
      await (await fetch(`${base}/health`)).arrayBuffer();
      stats.health(performance.now() - h0);
      await Bun.sleep(250);
    }
  })();

  // The open loop: operation k is due at start + k / RATE; each tick sends every operation now due.
  const start = performance.now();
  const end = start + MINUTES * 60_000;
  let k = 0;
  let nextMinute = start + 60_000;
  let nextRenewal = start + 20 * 60_000;
  /** A firm's access token renewed with its refresh token (the hour's expiry would otherwise answer 401). */
  const renew = (f: Firm): Promise<void> => {
    const t0 = performance.now();
    const p: Promise<void> = client
      .call("", "POST", "/api/auth/refresh", { refreshToken: f.refreshToken }, f.ip)
      .then(async (r) => {
        if (r.status === 200) ({ accessToken: f.token, refreshToken: f.refreshToken } = (await r.json()) as Json);
        else await r.arrayBuffer();
        stats.record("POST /auth/refresh", r.status, performance.now() - t0);
      })
      .finally(() => inFlight.delete(p));
    return p;
  };
  const inFlight = new Set<Promise<void>>();
  while (performance.now() < end) {
    const now = performance.now();
    while (start + (k * 1000) / RATE <= now) {
      const due = start + (k * 1000) / RATE;
      k++;
      stats.lag(now - due);
      const [route, , send] = pick();
      const firm = firms[Math.floor(Math.random() * firms.length)];
      const p: Promise<void> = send(firm)
        .then(
          (s) => stats.record(route, s, performance.now() - due),
          () => stats.record(route, 599, performance.now() - due),
        )
        .finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    if (now >= nextMinute) {
      stats.closeMinute(pid);
      nextMinute += 60_000;
    }
    if (now >= nextRenewal) {
      nextRenewal += 20 * 60_000;
      for (const f of firms) inFlight.add(renew(f));
    }
    await Bun.sleep(5);
  }
  await Promise.all(inFlight);
  running = false;
  await health;
  if (performance.now() - (nextMinute - 60_000) > 10_000) stats.closeMinute(pid); // the last part-minute, when real
  const s = stats.summary();
  await runEndChecks({ base, dataDir: svc.info.dataDir, receiverPort: receiver.info.port, firms, acked, svc });
  const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
  console.log("targets:");
  console.log(`  5xx = ${s.fivexx} (0): ${verdict(s.fivexx === 0)}`);
  console.log(`  slowest route p99 = ${s.routeP99Max.toFixed(1)} ms (< 50): ${verdict(s.routeP99Max < 50)}`);
  console.log(`  /health max = ${s.healthMax.toFixed(1)} ms (< 100): ${verdict(s.healthMax < 100)}`);
  const growth = (s.lastQ - s.firstQ) / s.firstQ;
  console.log(
    `  RSS last quarter vs first = ${(growth * 100).toFixed(1)} % (within 10 %): ${verdict(Math.abs(growth) <= 0.1)}`,
  );
} finally {
  svc.proc.kill("SIGTERM");
  receiver.proc.kill("SIGTERM");
}
