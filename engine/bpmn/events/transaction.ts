import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import { triggerBoundary } from "./boundary";
import { throwCompensation } from "./compensation";

/**
 * A cancel end event inside a transaction: everything else still running in it is cancelled, the compensation handlers
 * of its completed activities run (most recent first), then the transaction is left through its cancel boundary event.
 * The parser guarantees the end event sits directly in the transaction and that the boundary exists.
 */
export function cancelTransaction(run: Run, thrower: ExecutionRecord): void {
  const scope = run.parent(thrower)!;
  for (const c of run.children(scope)) if (c.id !== thrower.id) run.cancelExecution(c);
  if (!throwCompensation(run, thrower, run.el(thrower))) transactionCompensated(run, thrower);
}

/** Compensation of a cancelled transaction is done: the cancel boundary event interrupts it. */
export function transactionCompensated(run: Run, thrower: ExecutionRecord): void {
  const holder = run.parent(run.parent(thrower)!)!;
  const tx = run.el(holder);
  const boundary = (tx.boundaries ?? []).map((id) => run.el(holder, id)).find((b) => b.event?.kind === "cancel")!;
  run.actEnd(thrower, "completed");
  triggerBoundary(run, holder, boundary);
}
