// bench:agents — HTTP start+complete of a plain process, alone and while 16 agent steps of another firm wait 2 s each on
// the model (a firm's own inline agent starts take its admission slots, docs/limits.md, so they would queue its plain
// starts by design: the other firm is what shows whether a wait on a model holds anything shared); then alongside 50 agent loops over ad-hoc subprocesses (issue 34), each of 5 tool calls against a model answering
// in 200 ms: loops per second. Target (issues 12 and 34): with the agents at work, the plain rate keeps ≥ 90% of its
// rate without them (no lock is held while a model is awaited).
import { startFakeOpenAi } from "../test/harness/openai-server";
import { agentProcess } from "../test/harness/agents";
import { benchTenant } from "./support/bench-client";
import { startChild } from "./support/load";
import { closedLoop, fmt } from "./support/closed-loop";

/** An ad-hoc subprocess driven by `agent`, whose one tool `work` is a service task taking a number. */
const loopProcess = (key: string, agent: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:flowable="http://flowable.org/bpmn"
  xmlns:pms="urn:pms:bpmn" targetNamespace="t">
  <process id="${key}" isExecutable="true">
    <startEvent id="s"/>
    <adHocSubProcess id="loop" pms:agent="${agent}">
      <serviceTask id="work" name="Work" flowable:expression="\${n * 2}" flowable:resultVariable="r">
        <extensionElements><pms:inputOutput>
          <pms:inputParameter name="n">fromAi(toolCall.n, "the step", "number")</pms:inputParameter>
        </pms:inputOutput></extensionElements>
      </serviceTask>
    </adHocSubProcess>
    <endEvent id="e"/>
    <sequenceFlow id="f1" sourceRef="s" targetRef="loop"/>
    <sequenceFlow id="f2" sourceRef="loop" targetRef="e"/>
  </process>
</definitions>`;

const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const workers = Number(process.env.BENCH_WORKERS ?? 16);
const AGENTS = 16;

const LOOPS = Number(process.env.BENCH_LOOPS ?? 50);
const TOOL_CALLS = 5;
const ai = startFakeOpenAi();
let finals = 0;
let onFinal = () => {};
ai.respond = (body) => {
  const messages = body.messages as { role: string; content: unknown }[];
  if (!String(messages[0]?.content).startsWith("agent looper")) return { content: '{"z": "done"}', delayMs: 2000 };
  // A loop's conversation: one tool call per turn until it has had its results, then the final answer.
  const results = messages.filter((m) => m.role === "tool").length;
  if (results < TOOL_CALLS) return { toolCalls: [{ name: "work", arguments: { n: results + 1 } }], delayMs: 200 };
  finals++;
  onFinal();
  return { content: "{}", delayMs: 200 };
};
const svc = await startChild<{ base: string; token: string }>("bench/support/platform-server.ts", {
  AI_BASE_URL: ai.url,
  AI_MODEL: "fake-chat",
});
try {
  const auth = { authorization: `Bearer ${svc.info.token}` };
  const headers = { ...auth, "content-type": "application/json" };
  const post = (path: string, body: unknown) =>
    fetch(`${svc.info.base}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  const deploy = async (xml: string, token = svc.info.token) => {
    const fd = new FormData();
    fd.append("file", new File([xml], "m.bpmn"));
    const r = await fetch(`${svc.info.base}/api/a/definitions/deploy`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: fd,
    });
    if (r.status !== 200) throw new Error(`deploy failed: ${await r.text()}`);
  };
  const other = await benchTenant(svc.info.base, "agents", { password: "bench-password" });
  const asOther = (path: string, body: unknown) =>
    fetch(`${svc.info.base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${other.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const agent = await asOther("/api/a/agents", {
    key: "slow",
    name: "Slow",
    modelId: "fake-chat",
    instructions: "agent slow",
    outputVariables: [{ name: "z", type: "string" }],
  });
  if (agent.status !== 201) throw new Error(`agent: ${await agent.text()}`);
  await deploy(agentProcess("withAgent", `pms:agent="slow"`), other.token);
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
      const r = await asOther("/api/a/instances", { definitionKey: "withAgent" });
      if (r.status !== 201) throw new Error(`agent start ${r.status}: ${await r.text()}`);
      agentSteps++;
    }
  };
  const loops = Array.from({ length: AGENTS }, agentLoop);
  await Bun.sleep(300);
  const loaded = await closedLoop(step, { workers, seconds });
  stop = true;
  await Promise.all(loops);
  console.log(
    `plain start+complete with ${AGENTS} agents of another firm waiting: ${fmt(loaded)}  (${agentSteps} agent steps done)`,
  );
  const ratio = loaded.perSecond / alone.perSecond;
  console.log(`ratio with agents / alone: ${(ratio * 100).toFixed(1)}%   target ≥ 90%`);

  // 50 agent loops kept in flight: each final answer starts another (the finished one ends its instance meanwhile).
  const looper = await post("/api/a/agents", {
    key: "looper",
    name: "Looper",
    modelId: "fake-chat",
    instructions: "agent looper",
    limits: { maxModelCalls: 20, maxToolCalls: 20 },
  });
  if (looper.status !== 201) throw new Error(`looper: ${await looper.text()}`);
  await deploy(loopProcess("looped", "looper"));
  let looping = true;
  const startLoop = async () => {
    const r = await post("/api/a/instances", { definitionKey: "looped" });
    if (r.status !== 201) throw new Error(`loop start ${r.status}: ${await r.text()}`);
    await r.arrayBuffer();
  };
  onFinal = () => void (looping && startLoop());
  await Promise.all(Array.from({ length: LOOPS }, startLoop));
  await Bun.sleep(3000); // the loops reach their steady state (each turn and each tool start is a job)
  const f0 = finals;
  const t0 = performance.now();
  const withLoops = await closedLoop(step, { workers, seconds });
  const loopsPerSecond = (finals - f0) / ((performance.now() - t0) / 1000);
  looping = false;
  console.log(`plain start+complete with ${LOOPS} agent loops:   ${fmt(withLoops)}`);
  console.log(
    `agent loops of ${TOOL_CALLS} tool calls (model 200 ms), ${LOOPS} in flight: ${loopsPerSecond.toFixed(2)} loops/s`,
  );
  const loopRatio = withLoops.perSecond / alone.perSecond;
  console.log(`ratio with loops / alone: ${(loopRatio * 100).toFixed(1)}%   target ≥ 90%`);
  console.log(`load average: ${(await Bun.file("/proc/loadavg").text()).split(" ").slice(0, 3).join(" ")}`);
} finally {
  svc.proc.kill();
  ai.stop();
}
