import { addDuration, parseDuration } from "./duration";

/** How a failing job retries: attempts in total and the wait before each retry. */
export interface RetryPolicy {
  attempts: number;
  delayMs: (now: number) => number;
}

/** Default: 3 attempts, retried immediately (Flowable's default when no cycle is configured). */
export const DEFAULT_RETRIES = 3;

/** Parses `R3/PT10M` (3 attempts, 10 minutes apart); anything unparsable falls back to the default. */
export function parseRetryCycle(cycle: string | undefined | null): RetryPolicy {
  if (!cycle) return { attempts: DEFAULT_RETRIES, delayMs: () => 0 };
  const m = /^R(\d+)\/(P.+)$/.exec(cycle.trim());
  const d = m ? parseDuration(m[2]) : null;
  if (!m || !d) return { attempts: DEFAULT_RETRIES, delayMs: () => 0 };
  return { attempts: Math.max(1, Number(m[1])), delayMs: (now) => addDuration(now, d) - now };
}
