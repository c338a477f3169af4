import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import { triggerBoundary } from "./boundary";

/**
 * Compensation of a cancelled transaction is done: the cancel boundary event interrupts it. Its own file so that both
 * the cancel end event (transaction.ts) and the end of compensation (compensation.ts) reach it without a cycle.
 */
export function transactionCompensated(run: Run, thrower: ExecutionRecord): void {
  const holder = run.parent(run.parent(thrower)!)!;
  const tx = run.el(holder);
  const boundary = (tx.boundaries ?? []).map((id) => run.el(holder, id)).find((b) => b.event?.kind === "cancel")!;
  run.actEnd(thrower, "completed");
  triggerBoundary(run, holder, boundary);
}
