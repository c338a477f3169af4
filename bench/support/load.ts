// Shared helpers for HTTP benchmarks: start a child server that prints one JSON line, and drive autocannon.
import autocannon from "autocannon";
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { runtimeEnv, settingsOf } from "../../scripts/runtime-env";

export interface Child<T> {
  info: T;
  proc: ChildProcess;
}

/**
 * Spawns `bun <script>` and resolves with the JSON it prints on its first line. BENCH_CHILD_PROFILE=<dir> writes the
 * child's CPU profile (markdown) there when it exits: where a server spends its time under the benchmark's load.
 */
export async function startChild<T>(script: string, env: Record<string, string> = {}): Promise<Child<T>> {
  const profileDir = process.env.BENCH_CHILD_PROFILE;
  const flags = profileDir ? ["--cpu-prof-md", `--cpu-prof-dir=${profileDir}`] : [];
  const proc = spawn(process.execPath, [...flags, script], {
    // As `npm start` runs the service (scripts/runtime.env), unless the bench's caller says otherwise.
    env: { ...runtimeEnv(), ...process.env, ...childEnv(), ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const rl = createInterface({ input: proc.stdout! });
  const line = await new Promise<string>((resolve, reject) => {
    rl.once("line", resolve);
    proc.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
  });
  return { info: JSON.parse(line) as T, proc };
}

/** BENCH_CHILD_ENV="A=1,B=2": settings for the server child alone (an A/B of a runtime setting, the driver unchanged). */
function childEnv(): Record<string, string> {
  return settingsOf((process.env.BENCH_CHILD_ENV ?? "").split(","));
}

export interface LoadResult {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Runs autocannon against one URL; durations in seconds. */
export async function load(
  name: string,
  url: string,
  opts: {
    headers?: Record<string, string>;
    duration?: number;
    connections?: number;
    method?: string;
    body?: string;
  } = {},
): Promise<LoadResult> {
  const r = await autocannon({
    url,
    method: (opts.method ?? "GET") as "GET",
    headers: opts.headers,
    body: opts.body,
    duration: opts.duration ?? Number(process.env.BENCH_SECONDS ?? 8),
    connections: opts.connections ?? 32,
  });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

export function printTable(rows: LoadResult[]) {
  for (const r of rows) {
    console.log(
      `${r.name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(4)} ms   errors ${r.errors}  non-2xx ${r.non2xx}`,
    );
  }
}
