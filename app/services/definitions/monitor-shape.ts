import { REASONS } from "../../runtime/bpmn/monitor";

/** Every activity row carries all of the spec's reasons, 0 where nothing is parked for one, so clients can read any key. */
export function withAllReasons<T extends { activities: { byReason: Record<string, number> }[] }>(monitor: T): T {
  for (const a of monitor.activities) {
    const full: Record<string, number> = {};
    for (const r of REASONS) full[r] = a.byReason[r] ?? 0;
    a.byReason = full;
  }
  return monitor;
}
