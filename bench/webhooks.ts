// bench:webhooks — webhook deliveries per second from the outbox to a local receiver (target, issue 14: ≥ 1,000/s).
// In one process: the service (test harness, WEBHOOKS_ALLOW_PRIVATE for 127.0.0.1), a receiver answering 204, and the
// dispatcher draining the outbox filled by N process starts (one `process.instance.started` event each).
import { startTestServer } from "../test/harness/server";
import { createTenant, saTenantToken } from "../test/harness/fixtures";
import { bpmnFixture, deployBpmn } from "../test/harness/process";

const N = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000);
let received = 0;
const rx = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    await req.text();
    received++;
    return new Response(null, { status: 204 });
  },
});
const s = await startTestServer({ env: { WEBHOOKS_ALLOW_PRIVATE: "127.0.0.1" } });
try {
  const tenant = await createTenant(s, "bench-hooks");
  const token = await saTenantToken(s, tenant);
  await deployBpmn(s, token, bpmnFixture("approval.bpmn"));
  const res = await s.req("POST", "/api/a/webhooks", {
    token,
    json: { url: `http://127.0.0.1:${rx.port}/hook`, events: ["process.instance.started"] },
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
  await s.platform.webhooks.dispatcher.runOnce();
  const sec = (performance.now() - t1) / 1000;
  console.log(
    `delivered ${received} of ${N} in ${sec.toFixed(2)} s: ${(received / sec).toFixed(0)} deliveries/s (target ≥ 1,000/s)`,
  );
} finally {
  rx.stop(true);
  await s.close();
}
