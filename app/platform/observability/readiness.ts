import type { Database } from "bun:sqlite";

export type Phase = "starting" | "ready" | "draining";

export interface Readiness {
  ready: boolean;
  phase: Phase;
  checks: Record<string, "UP" | "DOWN">;
}

/** Ready means: started and not draining, both shared databases answer, and the job executor polls. */
export function readinessOf(phase: Phase, dbs: Record<string, Database>, jobExecutorActive: boolean): Readiness {
  const checks: Readiness["checks"] = {};
  for (const [name, db] of Object.entries(dbs)) {
    try {
      db.query("SELECT 1").get();
      checks[name] = "UP";
    } catch {
      checks[name] = "DOWN";
    }
  }
  checks.jobExecutor = jobExecutorActive ? "UP" : "DOWN";
  const ready = phase === "ready" && Object.values(checks).every((c) => c === "UP");
  return { ready, phase, checks };
}
