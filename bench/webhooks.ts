// bench:webhooks — webhook deliveries per second from the outbox to a local receiver (target, issue 14: ≥ 1,000/s).
// The service (test harness, WEBHOOKS_ALLOW_PRIVATE for 127.0.0.1) and its dispatcher drain the outbox filled by N
// process starts (one `process.instance.started` event each) to a receiver answering 204 in a child process.
import { startTestServer } from "../test/harness/server";
import { createTenant, saTenantToken } from "../test/harness/fixtures";
import { bpmnFixture, deployBpmn } from "../test/harness/process";
import { startChild } from "./support/load";

const N = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000);
const rx = await startChild<{ port: number }>(`${import.meta.dir}/support/webhook-receiver.ts`);
const rxUrl = `http://127.0.0.1:${rx.info.port}`;
// WEBHOOK_ENDPOINT_CONCURRENCY from the caller: the one endpoint's slots bound this bench's rate (docs/limits.md).
const perEndpoint = process.env.WEBHOOK_ENDPOINT_CONCURRENCY;
const s = await startTestServer({
  env: { WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1", ...(perEndpoint ? { WEBHOOK_ENDPOINT_CONCURRENCY: perEndpoint } : {}) },
});
try {
  const tenant = await createTenant(s, "bench-hooks");
  const token = await saTenantToken(s, tenant);
  await deployBpmn(s, token, bpmnFixture("approval.bpmn"));
  const res = await s.req("POST", "/api/a/webhooks", {
    token,
    json: { url: `${rxUrl}/hook`, events: ["process.instance.started"] },
  });
  if (res.status !== 201) throw new Error(`webhook not created: ${res.status}`);
  const t0 = performance.now();
  for (let i = 0; i < N; i += 50)
    await Promise.all(
      Array.from({ length: Math.min(50, N - i) }, () =>
        s.req("POST", "/api/a/instances", { token, json: { definitionKey: "approval" } }),
      ),
    );
  const startS = (performance.now() - t0) / 1000;
  console.log(
    `${N} starts with the outbox on: ${(N / startS).toFixed(0)}/s; outbox holds ${s.platform.webhooks.outbox.size()}`,
  );
  const t1 = performance.now();
  const cpu0 = process.cpuUsage();
  await s.platform.webhooks.dispatcher.runOnce();
  const sec = (performance.now() - t1) / 1000;
  // CPU time of the service process (all its threads) per delivery: what a loaded machine changes least.
  const cpu = process.cpuUsage(cpu0);
  const { received } = (await (await fetch(`${rxUrl}/count`)).json()) as { received: number };
  console.log(
    `delivered ${received} of ${N} in ${sec.toFixed(2)} s: ${(received / sec).toFixed(0)} deliveries/s (target ≥ 1,000/s, ratio ${(received / sec / 1000).toFixed(2)})`,
  );
  const perDelivery = (cpu.user + cpu.system) / received;
  console.log(
    `service CPU per delivery: ${perDelivery.toFixed(0)} µs (${(1e6 / perDelivery).toFixed(0)} deliveries per CPU-second)`,
  );
} finally {
  rx.proc.kill();
  await s.close();
}
