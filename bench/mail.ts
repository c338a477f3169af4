// bench:mail — mails drained by the real mail poller, each starting a one-task process (issue 32: 500 mails drained
// with their starts, p99 mail-to-instance latency at a 10 s poll). The service is a child (`npm start`'s background
// work, so the poller ticks every 5 s and reads the inbox at its 10 s interval, and as soon as the server's IDLE
// announces new mail); the IMAP server is the test harness's hoodiecrow on 127.0.0.1 in this process. Mails are
// appended in batches while the poller runs; latency runs from an append's answer to the instance's start time.
// Usage: bun bench/mail.ts   (BENCH_MAILS, BENCH_MAIL_BATCH, BENCH_MAIL_GAP_MS)
import { rawMail, startTestImap } from "../test/harness/imap";
import { startChild } from "./support/load";

const N = Number(process.env.BENCH_MAILS ?? 500);
const BATCH = Number(process.env.BENCH_MAIL_BATCH ?? 25);
const GAP_MS = Number(process.env.BENCH_MAIL_GAP_MS ?? 2_000);
const POLL_S = 10;
const DRAIN_TIMEOUT_MS = 90_000;
const xml = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="b">
  <process id="mailBench" isExecutable="true">
    <startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
    <userTask id="t" name="Handle mail"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>
  </process>
</definitions>`;

type Instance = { id: string; businessKey: string; definitionKey: string; startTime: string };

const imap = await startTestImap();
const child = await startChild<{ base: string; token: string }>(`${import.meta.dir}/support/platform-server.ts`);
const { base, token } = child.info;
const api = async (method: string, path: string, body?: unknown, expected = [200, 201, 204]) => {
  const isForm = body instanceof FormData;
  const res = await fetch(base + path, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body && !isForm ? { "content-type": "application/json" } : {}) },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  if (!expected.includes(res.status)) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.status === 204 ? null : res.json();
};
/** Every instance of the bench process (paged). */
const instances = async () => {
  const all: Instance[] = [];
  for (let page = 0; ; page++) {
    const got = ((await api("GET", `/api/a/instances?page=${page}&size=100`)) as { content: Instance[] }).content;
    all.push(...got.filter((i) => i.definitionKey === "mailBench"));
    if (got.length < 100) return all;
  }
};
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];

try {
  await api("PUT", "/api/a/variables/IMAP_PW", { value: imap.password, secret: true });
  await api("PUT", "/api/a/variables/MAIL_ALLOWED_PRIVATE_HOSTS", { value: "127.0.0.1" });
  const fd = new FormData();
  fd.append("file", new File([xml], "mail-bench.bpmn", { type: "application/xml" }));
  await api("POST", "/api/a/definitions/deploy", fd);
  // The business key carries the mail's number: duplicates and losses are counted from the instances alone.
  await api("PUT", "/api/a/definitions/mailBench/config", { businessKeyTemplate: "MAIL-${n}" });
  const inbox = (await api("POST", "/api/a/mail-inboxes", {
    name: "Bench",
    host: imap.host,
    port: imap.port,
    tlsMode: "NONE",
    username: imap.user,
    passwordVariable: "IMAP_PW",
    pollIntervalSeconds: POLL_S,
  })) as { id: string };
  await api("POST", "/api/a/mail-rules", {
    name: "Bench",
    inboxId: inbox.id,
    definitionKey: "mailBench",
    match: { subjectContains: "Bench mail" },
    mapping: { subject: "subject", extract: [{ source: "SUBJECT", pattern: "Bench mail (?<n>\\d+)" }] },
  });

  // Steady state: the poller has read the inbox once (at its first 5 s tick) and opened its IDLE watch after it.
  while (!((await api("GET", `/api/a/mail-inboxes/${inbox.id}`)) as { lastPollAt: string | null }).lastPollAt)
    await Bun.sleep(200);
  await Bun.sleep(1_000);
  const appendedAt = new Map<string, number>();
  const t0 = Date.now();
  for (let i = 0; i < N; i += BATCH) {
    const batchStart = Date.now();
    // One after another, as a mail server delivers them (each append is its own IMAP connection).
    for (let n = i; n < Math.min(i + BATCH, N); n++) {
      await imap.append(
        rawMail({ messageId: `bench-${n}@mail.test`, from: "a@mail.test", subject: `Bench mail ${n}` }),
      );
      appendedAt.set(`MAIL-${n}`, Date.now());
    }
    if (i + BATCH < N) await Bun.sleep(Math.max(0, GAP_MS - (Date.now() - batchStart)));
  }
  const appendS = (Date.now() - t0) / 1000;
  console.log(`${N} mails appended in ${appendS.toFixed(1)} s (batches of ${BATCH} every ${GAP_MS} ms)`);

  let found: Instance[] = [];
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    found = await instances();
    if (new Set(found.map((i) => i.businessKey)).size >= N) break;
    await Bun.sleep(500);
  }
  // Let a late duplicate show up before counting.
  await Bun.sleep(1_000);
  found = await instances();
  const byKey = new Map<string, Instance>();
  for (const i of found) {
    const seen = byKey.get(i.businessKey);
    if (!seen || Date.parse(i.startTime) < Date.parse(seen.startTime)) byKey.set(i.businessKey, i);
  }
  const duplicates = found.length - byKey.size;
  const lost = [...appendedAt.keys()].filter((k) => !byKey.has(k)).length;
  const latencies = [...byKey.entries()]
    .filter(([k]) => appendedAt.has(k))
    .map(([k, i]) => Math.max(0, Date.parse(i.startTime) - (appendedAt.get(k) as number)))
    .sort((a, b) => a - b);
  const starts = [...byKey.values()].map((i) => Date.parse(i.startTime));
  const drainS = (Math.max(...starts) - t0) / 1000;
  const spanS = (Math.max(...starts) - Math.min(...starts)) / 1000;
  console.log(
    `drained ${byKey.size} of ${N} mails with their starts in ${drainS.toFixed(1)} s from the first append: ${(byKey.size / drainS).toFixed(1)} mails/s`,
  );
  // Spread appends bound the figure above to the offered rate; a burst (BENCH_MAIL_BATCH=500) shows the capacity.
  console.log(`first to last start: ${spanS.toFixed(2)} s (${(byKey.size / spanS).toFixed(0)} starts/s)`);
  const p99 = pct(latencies, 0.99);
  console.log(
    `mail-to-instance latency: p50 ${pct(latencies, 0.5)} ms, p99 ${p99} ms, max ${latencies.at(-1)} ms (poll interval ${POLL_S} s)`,
  );
  console.log(`duplicates ${duplicates} (must be 0), lost ${lost} (must be 0)`);
  console.log(`peer figure: p99 / poll interval = ${(p99 / (POLL_S * 1000)).toFixed(3)}`);
  if (duplicates > 0 || lost > 0) process.exitCode = 1;
} finally {
  child.proc.kill();
  // hoodiecrow's close waits for every connection to end; the figures are printed, so leave without waiting.
  await Promise.race([imap.close(), Bun.sleep(1_000)]);
  process.exit();
}
