// Child process for bench:robots' Camunda part: 8 of Camunda 7's own JavaScript workers (camunda-external-task-client-js,
// unchanged) against the Camunda-shaped API, each subscribed to the bench topic with a long poll. Same IPC as
// robot-runners.ts: "started", "handled" once the N queued jobs were completed, and on "stop" the creation → handler
// latencies of the probe jobs (variable t) and this process' CPU time.
import { Client } from "camunda-external-task-client-js";

const { baseUrl, tokens, jobs, maxTasks } = JSON.parse(process.env.BENCH_ROBOT_RUNNERS ?? "{}") as {
  baseUrl: string;
  tokens: string[];
  jobs: number;
  maxTasks: number;
};
const send = (m: unknown) => process.send?.(m);
const now = () => performance.timeOrigin + performance.now();
let handled = 0;
const latencies: number[] = [];
const cpu0 = process.cpuUsage();
const clients = tokens.map((token, i) => {
  const client = new Client({
    baseUrl: `${baseUrl}/a/robot-runners`,
    workerId: `bench-camunda-${i}`,
    maxTasks,
    // a worker with work to do polls again at once; an idle one waits in the long poll
    interval: 0,
    asyncResponseTimeout: 10_000,
    interceptors: (config: { headers?: Record<string, string> }) => ({
      ...config,
      headers: { ...config.headers, Authorization: `Bearer ${token}` },
    }),
    use: () => {},
  });
  client.subscribe("bench", {}, async ({ task, taskService }) => {
    const t = task.variables.get("t");
    await taskService.complete(task);
    if (typeof t === "number") latencies.push(now() - t);
    else if (++handled === jobs) send({ handled });
  });
  client.start();
  return client;
});
send({ started: true });
process.on("message", (m) => {
  if (m !== "stop") return;
  for (const c of clients) c.stop();
  const cpu = process.cpuUsage(cpu0);
  send({ latencies, cpuMicros: cpu.user + cpu.system });
  process.exit(0);
});
