/**
 * A small robot runner: copy this file into your own project (it imports nothing of the platform).
 *
 *   ROBOT_BASE_URL=https://pms.example.com/api ROBOT_TOKEN=pmsr_… bun examples/robot-runner.ts
 *
 * It long-polls the external task API for the topics (robot keys) it has handlers for, runs each task's handler,
 * and reports the outcome: the handler's returned variables complete the task, a thrown RobotBpmnError becomes a BPMN
 * error at the step, any other error a failure (retried after retryTimeout until the retries run out).
 */

export interface ExternalTask {
  id: string;
  topicName: string;
  processInstanceId: string | null;
  /** Set instead of processInstanceId when the task is a case's (CMMN); a case's task cannot take a BPMN error. */
  caseInstanceId?: string | null;
  activityId: string;
  retries: number;
  errorMessage: string | null;
  variables: Record<string, unknown>;
  /** The robot's configured parameters, secret ones resolved for this hand-off only. */
  parameters: Record<string, unknown>;
}

/** Throw from a handler to raise a BPMN error (caught by boundary events of the step). */
export class RobotBpmnError extends Error {
  constructor(
    readonly code: string,
    message?: string,
  ) {
    super(message ?? code);
  }
}

export type RobotHandler = (
  task: ExternalTask,
) => Promise<Record<string, unknown> | void> | Record<string, unknown> | void;

export interface RunnerOptions {
  /** The service's API root, e.g. http://localhost:3000/api */
  baseUrl: string;
  token: string;
  handlers: Record<string, RobotHandler>;
  maxTasks?: number;
  /** How long a fetched task stays ours (ms); extend it for long work. */
  lockDuration?: number;
  /** How long a fetch waits for work (ms, at most 60 000). */
  asyncResponseTimeout?: number;
  /** Wait before a failed task is tried again (ms). */
  retryTimeout?: number;
  /** How many fetch loops run side by side (each holds one long poll). */
  concurrency?: number;
  fetch?: typeof fetch;
  onError?: (e: unknown) => void;
}

export function startRobotRunner(opts: RunnerOptions) {
  const doFetch = opts.fetch ?? fetch;
  const base = `${opts.baseUrl.replace(/\/$/, "")}/a/robot-runners/external-task`;
  const controller = new AbortController();
  let running = true;

  const call = async (path: string, body: unknown) => {
    const res = await doFetch(`${base}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${opts.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: controller.signal,
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.status === 204 ? null : res.json();
  };

  const handle = async (task: ExternalTask) => {
    try {
      const variables = (await opts.handlers[task.topicName](task)) ?? {};
      await call(`/${task.id}/complete`, { variables });
    } catch (e) {
      if (!running) return;
      if (e instanceof RobotBpmnError)
        return void (await call(`/${task.id}/bpmnError`, { errorCode: e.code, errorMessage: e.message }));
      await call(`/${task.id}/failure`, {
        errorMessage: e instanceof Error ? e.message : String(e),
        retries: Math.max(0, task.retries - 1),
        retryTimeout: opts.retryTimeout ?? 1000,
      });
    }
  };

  const loop = async () => {
    const topics = Object.keys(opts.handlers).map((topicName) => ({
      topicName,
      lockDuration: opts.lockDuration ?? 30_000,
    }));
    while (running) {
      try {
        const tasks = (
          (await call("/fetchAndLock", {
            maxTasks: opts.maxTasks ?? 10,
            asyncResponseTimeout: opts.asyncResponseTimeout ?? 30_000,
            topics,
          })) as ExternalTask[]
        ).map((t) => ({ ...t, variables: plainValues(t.variables) }));
        await Promise.all(tasks.map((t) => handle(t).catch((e) => opts.onError?.(e))));
      } catch (e) {
        if (!running) break;
        opts.onError?.(e);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  };

  const loops = Array.from({ length: opts.concurrency ?? 1 }, loop);
  return {
    /** Stops fetching (an open long poll is abandoned) and waits for the loops to end. */
    async stop() {
      running = false;
      controller.abort();
      await Promise.allSettled(loops);
    },
  };
}

/** The API hands variables over typed, as Camunda does (`{type, value, valueInfo}`); handlers here get plain values. */
function plainValues(typed: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, t] of Object.entries(typed)) {
    const { type, value } = t as { type: string; value: unknown };
    out[name] = type === "Json" && typeof value === "string" ? JSON.parse(value) : value;
  }
  return out;
}

if (import.meta.main) {
  const runner = startRobotRunner({
    baseUrl: process.env.ROBOT_BASE_URL ?? "http://localhost:3000/api",
    token: process.env.ROBOT_TOKEN ?? "",
    // An example robot: echoes its parameters back as variables.
    handlers: { echo: (task) => ({ echoed: task.parameters }) },
    onError: (e) => console.error(e),
  });
  process.on("SIGINT", () => void runner.stop().then(() => process.exit(0)));
}
