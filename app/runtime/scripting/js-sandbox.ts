import type { ScriptSandbox } from "../../../engine/bpmn/deps";
import { createScriptPool, type ScriptPool } from "./script-pool";
import { DEFAULT_SCRIPT_WORKERS } from "./script-limits";

export { SCRIPT_LIMITS } from "./script-limits";

// One pool per size for the whole process: every runtime on it (each test's, the platform's) shares its workers.
const pools = new Map<number, ScriptPool>();

/** The process's script pool of `workers` workers (SCRIPT_WORKERS, read once at start), started on first use. */
export function scriptPool(workers = DEFAULT_SCRIPT_WORKERS): ScriptPool {
  let pool = pools.get(workers);
  if (!pool) pools.set(workers, (pool = createScriptPool({ workers })));
  return pool;
}

/**
 * JavaScript of models in QuickJS WebAssembly sandboxes on the script pool's workers: a fresh runtime per evaluation,
 * no I/O, no timers, no access to the service (only `execution.getVariable/setVariable`), a CPU-time cap, a wall-clock
 * deadline enforced by terminating the worker, a memory cap and a size cap on what it writes. A broken limit ends in
 * an Error naming it, which the engine turns into a failed command or job.
 */
export function createJsSandbox(pool: ScriptPool = scriptPool()): ScriptSandbox {
  return { run: (source, job) => pool.run(source, { tenantId: job.tenantId, variables: asJson(job.variables) }) };
}

/**
 * The variables as the script sees them, as JSON values: what `getVariable` has always returned (a FEEL date becomes
 * its string), and always clonable to a worker. One that has no JSON form (a BigInt, a cycle) is left out.
 */
function asJson(variables: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(variables)) {
    try {
      const json = JSON.stringify(value ?? null);
      if (json !== undefined) out[name] = JSON.parse(json);
    } catch {
      // not representable in JSON: the script cannot read it
    }
  }
  return out;
}
