// Child process for bench:robots: 8 copies of examples/robot-runner.ts against the service (their own event loop and
// core, as runners on other machines would be). Talks to the parent over IPC: "started" once the runners poll,
// "handled" when the N queued jobs reached their handlers; on "stop" it answers the creation → handler latencies of
// the probe jobs (variables.t: the parent's absolute time in ms) and its own CPU time.
import { startRobotRunner } from "../../examples/robot-runner";

const { baseUrl, tokens, jobs } = JSON.parse(process.env.BENCH_ROBOT_RUNNERS ?? "{}") as {
  baseUrl: string;
  tokens: string[];
  jobs: number;
};
const send = (m: unknown) => process.send?.(m);
const now = () => performance.timeOrigin + performance.now();
let handled = 0;
const latencies: number[] = [];
const cpu0 = process.cpuUsage();
const runners = tokens.map((token) =>
  startRobotRunner({
    baseUrl,
    token,
    maxTasks: 50,
    asyncResponseTimeout: 10_000,
    handlers: {
      bench: (task) => {
        if (typeof task.variables.t === "number") latencies.push(now() - task.variables.t);
        else if (++handled === jobs) send({ handled });
      },
    },
    onError: (e) => console.error(String(e)),
  }),
);
send({ started: true });
process.on("message", async (m) => {
  if (m !== "stop") return;
  await Promise.all(runners.map((r) => r.stop()));
  const cpu = process.cpuUsage(cpu0);
  send({ latencies, cpuMicros: cpu.user + cpu.system });
  process.exit(0);
});
