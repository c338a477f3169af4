// bench:bpmn-http — start + complete of a one-user-task process over HTTP, with synchronous=NORMAL and FULL.
// Target (issue 3): ≥ 2,000 completed instances/s with synchronous=NORMAL on the 2-core machine.
import { startChild } from "./support/load";
import { closedLoop, fmt } from "./support/closed-loop";

const PROCESS = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="bench">
  <process id="oneTask" name="One task" isExecutable="true">
    <startEvent id="s" /><sequenceFlow id="f1" sourceRef="s" targetRef="t" />
    <userTask id="t" name="Do it" /><sequenceFlow id="f2" sourceRef="t" targetRef="e" />
    <endEvent id="e" />
  </process>
</definitions>`;

const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const workers = Number(process.env.BENCH_WORKERS ?? 16);

async function run(sync: "NORMAL" | "FULL") {
  const svc = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts", {
    SQLITE_SYNCHRONOUS: sync,
  });
  try {
    const auth = { authorization: `Bearer ${svc.info.token}` };
    const fd = new FormData();
    fd.append("file", new File([PROCESS], "one-task.bpmn"));
    const dep = await fetch(`${svc.info.base}/api/a/definitions/deploy`, { method: "POST", headers: auth, body: fd });
    if (dep.status !== 200) throw new Error(`deploy failed: ${await dep.text()}`);
    const headers = { ...auth, "content-type": "application/json" };
    const step = async () => {
      const started = await fetch(`${svc.info.base}/api/a/instances`, {
        method: "POST",
        headers,
        body: '{"definitionKey":"oneTask","businessKey":"B"}',
      });
      if (started.status !== 201) throw new Error(String(started.status));
      const { activeTasks } = (await started.json()) as { activeTasks: { id: string }[] };
      const done = await fetch(`${svc.info.base}/api/a/tasks/${activeTasks[0].id}/complete`, {
        method: "POST",
        headers,
        body: '{"variables":{"ok":true}}',
      });
      if (done.status !== 200) throw new Error(String(done.status));
      await done.arrayBuffer();
    };
    await closedLoop(step, { workers, seconds: 2 });
    const r = await closedLoop(step, { workers, seconds });
    console.log(
      `HTTP start+complete, synchronous=${sync.padEnd(6)} ${fmt(r)}  (completed instances/s; latency of the pair)`,
    );
    return r;
  } finally {
    svc.proc.kill();
  }
}

const normal = await run("NORMAL");
const full = await run("FULL");
console.log(`ratio NORMAL / FULL: ${(normal.perSecond / full.perSecond).toFixed(2)}x   target NORMAL ≥ 2,000/s`);
console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
