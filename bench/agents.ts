// bench:agents — HTTP start+complete of a plain process, alone and while 16 agent steps wait 2 s each on the model.
// Target (issue 12): with the agents waiting, the plain rate keeps ≥ 90% of its rate without them (no lock is held
// while a model is awaited).
import { startFakeOpenAi } from "../test/harness/openai-server";
import { agentProcess } from "../test/harness/agents";
import { startChild } from "./support/load";
import { closedLoop, fmt } from "./support/closed-loop";

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const workers = Number(process.env.BENCH_WORKERS ?? 16);
const AGENTS = 16;

const ai = startFakeOpenAi();
ai.chatDelayMs = 2000;
ai.respond = () => ({ content: '{"z": "done"}' });
const svc = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts", {
  AI_BASE_URL: ai.url,
  AI_MODEL: "fake-chat",
});
try {
  const auth = { authorization: `Bearer ${svc.info.token}` };
  const headers = { ...auth, "content-type": "application/json" };
  const post = (path: string, body: unknown) =>
    fetch(`${svc.info.base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const deploy = async (xml: string) => {
    const fd = new FormData();
    fd.append("file", new File([xml], "m.bpmn"));
    const r = await fetch(`${svc.info.base}/api/a/definitions/deploy`, { method: "POST", headers: auth, body: fd });
    if (r.status !== 200) throw new Error(`deploy failed: ${await r.text()}`);
  };
  const agent = await post("/api/a/agents", {
    key: "slow",
    name: "Slow",
    modelId: "fake-chat",
    instructions: "agent slow",
    outputVariables: [{ name: "z", type: "string" }],
  });
  if (agent.status !== 201) throw new Error(`agent: ${await agent.text()}`);
  await deploy(agentProcess("withAgent", `pms:agent="slow"`));
  await deploy(agentProcess("plain", `flowable:expression="\${1}"`));

  const step = async () => {
    const started = await post("/api/a/instances", { definitionKey: "plain", businessKey: "B" });
    if (started.status !== 201) throw new Error(String(started.status));
    const { activeTasks } = (await started.json()) as { activeTasks: { id: string }[] };
    const done = await post(`/api/a/tasks/${activeTasks[0].id}/complete`, { variables: { ok: true } });
    if (done.status !== 200) throw new Error(String(done.status));
    await done.arrayBuffer();
  };
  await closedLoop(step, { workers, seconds: 2 });
  const alone = await closedLoop(step, { workers, seconds });
  console.log(`plain start+complete alone:                  ${fmt(alone)}`);

  // 16 agent starts kept in flight: each holds its request open for the model's 2 s.
  let stop = false;
  let agentSteps = 0;
  const agentLoop = async () => {
    while (!stop) {
      const r = await post("/api/a/instances", { definitionKey: "withAgent" });
      if (r.status !== 201) throw new Error(`agent start ${r.status}: ${await r.text()}`);
      agentSteps++;
    }
  };
  const loops = Array.from({ length: AGENTS }, agentLoop);
  await Bun.sleep(300);
  const loaded = await closedLoop(step, { workers, seconds });
  stop = true;
  await Promise.all(loops);
  console.log(`plain start+complete with ${AGENTS} agents waiting: ${fmt(loaded)}  (${agentSteps} agent steps done)`);
  const ratio = loaded.perSecond / alone.perSecond;
  console.log(`ratio with agents / alone: ${(ratio * 100).toFixed(1)}%   target ≥ 90%`);
  console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
} finally {
  svc.proc.kill();
  ai.stop();
}
