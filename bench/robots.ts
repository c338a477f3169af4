// bench:robots — robot jobs completed per second by 8 runners with long polling (target, issue 14: ≥ 2,000/s), the
// added latency from job creation to fetch (p99 < 50 ms), then bench:webhooks (deliveries/s with the outbox on).
// The service over real HTTP on 127.0.0.1 in this process; 8 copies of examples/robot-runner.ts in a child process, then
// 8 of Camunda 7's own JavaScript worker (bench/support/camunda-runners.ts), each with maxTasks 50 and a long poll.
import { startTestServer } from "../test/harness/server";
import { createTenant, saTenantToken } from "../test/harness/fixtures";
import { deployBpmn } from "../test/harness/process";

const N = Number(process.env.BENCH_ROBOT_JOBS ?? 4_000);
const PROBES = Number(process.env.BENCH_ROBOT_PROBES ?? 200);
const RUNNERS = 8;
// BENCH_ROBOT_CLIENTS=camunda (or runner) measures one client only; BENCH_ROBOT_WEBHOOKS=0 skips part 3
const CLIENTS = (process.env.BENCH_ROBOT_CLIENTS ?? "runner,camunda").split(",");
const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:pms="urn:pms:bpmn" targetNamespace="b">
  <process id="robotBench" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="r"/>
    <serviceTask id="r" pms:robot="bench"/><sequenceFlow id="f2" sourceRef="r" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

type FromRunners = { started?: true; handled?: number; latencies?: number[]; cpuMicros?: number };

const s = await startTestServer();
const http = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req, srv) => s.app.fetch(req, { server: srv }) });
const rt = s.platform.processRuntime;
const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
try {
  const tenant = await createTenant(s, "bench-robots");
  const token = await saTenantToken(s, tenant);
  await deployBpmn(s, token, xml, "bench.bpmn");
  await s.req("POST", "/api/a/robots", { token, json: { key: "bench", name: "Bench" } });
  const runnerTokens: string[] = [];
  for (let i = 0; i < RUNNERS; i++) {
    const res = await s.req("POST", "/api/a/robot-runners", { token, json: { name: `bench-${i}` } });
    runnerTokens.push(((await res.json()) as { token: string }).token);
  }
  const start = (variables: Record<string, unknown> = {}) =>
    rt.startInstance(tenant.id, { definitionKey: "robotBench", variables, channel: "REST" });

  // Whether a robot job is left: polled every 10 ms in the service's own process, so it stops at the first row (a
  // count of the whole queue took CPU from the service while it drained).
  const left = s.platform.engineSqlite.query<{ n: number }, []>(
    "SELECT 1 AS n FROM jobs WHERE kind = 'external' LIMIT 1",
  );

  // Each client in turn: this repository's runner (examples/robot-runner.ts) and Camunda 7's own JavaScript worker.
  for (const client of CLIENTS) {
    const label = client === "camunda" ? "Camunda external-task client" : "robot-runner";
    // 1. Throughput: N jobs queued, then 8 long-polling runners drain them; done when no robot job is left
    // (completed, not merely handed to a handler).
    const q0 = performance.now();
    const qcpu0 = process.cpuUsage();
    for (let i = 0; i < N; i += 200) await Promise.all(Array.from({ length: Math.min(200, N - i) }, () => start()));
    const qcpu = cpuMs(process.cpuUsage(qcpu0));
    console.log(
      `[${label}] ${N} robot jobs created (one instance start each, in process): ${(N / ((performance.now() - q0) / 1000)).toFixed(0)}/s, ${((qcpu * 1000) / N).toFixed(0)} µs CPU each`,
    );
    const messages: FromRunners[] = [];
    let onMessage = () => {};
    const next = (has: (m: FromRunners) => boolean) =>
      new Promise<FromRunners>((resolve) => {
        const check = () => {
          const m = messages.find(has);
          if (m) resolve(m);
          else onMessage = check;
        };
        check();
      });
    const script = client === "camunda" ? "camunda-runners.ts" : "robot-runners.ts";
    const child = Bun.spawn([process.execPath, `${import.meta.dir}/support/${script}`], {
      env: {
        ...process.env,
        BENCH_ROBOT_RUNNERS: JSON.stringify({
          baseUrl: `http://127.0.0.1:${http.port}/api`,
          tokens: runnerTokens,
          jobs: N,
          maxTasks: 50,
        }),
      },
      stdout: "inherit",
      stderr: "inherit",
      ipc(m: FromRunners) {
        messages.push(m);
        onMessage();
      },
    });
    await next((m) => !!m.started);
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    while (left.get()) await Bun.sleep(10);
    const sec = (performance.now() - t0) / 1000;
    const cpu = cpuMs(process.cpuUsage(cpu0));
    console.log(
      `[${label}] ${N} robot jobs completed by ${RUNNERS} runners in ${sec.toFixed(2)} s: ${(N / sec).toFixed(0)} jobs/s (target ≥ 2,000/s, ratio ${(N / sec / 2000).toFixed(2)})`,
    );
    console.log(
      `[${label}] service CPU per job: ${((cpu * 1000) / N).toFixed(0)} µs (${((N / cpu) * 1000).toFixed(0)} jobs per CPU-second)`,
    );

    // 2. Added latency: with every runner waiting in a long poll, one job at a time, creation → handler.
    await Bun.sleep(200);
    for (let i = 0; i < PROBES; i++) {
      await start({ t: performance.timeOrigin + performance.now() });
      await Bun.sleep(5);
    }
    await Bun.sleep(500);
    child.send("stop");
    const { latencies = [], cpuMicros = 0 } = await next((m) => !!m.latencies);
    await child.exited;
    console.log(`[${label}] runner process CPU: ${(cpuMicros / 1000).toFixed(0)} ms in all`);
    latencies.sort((a, b) => a - b);
    const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
    console.log(
      `[${label}] creation → fetch over ${latencies.length} jobs: p50 ${pct(50).toFixed(1)} ms, p99 ${pct(99).toFixed(1)} ms (target p99 < 50 ms, ratio ${(pct(99) / 50).toFixed(2)})`,
    );
  }
} finally {
  http.stop(true);
  await s.close();
}

// 3. Webhook deliveries per second with the outbox on (its own bench, in a child process so figures do not mix).
if (process.env.BENCH_ROBOT_WEBHOOKS === "0") process.exit(0);
const webhooks = Bun.spawn([process.execPath, `${import.meta.dir}/webhooks.ts`], {
  stdout: "inherit",
  stderr: "inherit",
});
await webhooks.exited;
