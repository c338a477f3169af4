/** The spec's monitor reasons; every activity row carries all of them (0 where nothing is parked for that reason). */
export const MONITOR_REASONS = ["USER_TASK", "JOB_FAILED", "JOB_RETRYING", "TIMER", "EXECUTING"] as const;

/** Fills the missing reasons of each activity with 0, so clients can read any key. */
export function withAllReasons<T extends { activities: { byReason: Record<string, number> }[] }>(monitor: T): T {
  for (const a of monitor.activities) {
    const full: Record<string, number> = {};
    for (const r of MONITOR_REASONS) full[r] = a.byReason[r] ?? 0;
    a.byReason = full;
  }
  return monitor;
}
