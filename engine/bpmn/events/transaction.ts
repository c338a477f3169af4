import type { Run } from "../run";
import type { ExecutionRecord } from "../state";
import { throwCompensation } from "./compensation";
import { transactionCompensated } from "./transaction-cancelled";

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
