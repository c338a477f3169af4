import { AsyncLocalStorage } from "node:async_hooks";
import { TooManyRequestsError } from "./errors";

/** How much work an admission lets run (read once at start: app/platform/config.ts, docs/limits.md). */
export interface AdmissionSettings {
  /** What is admitted, for the refusal's message ("expensive requests", "password checks"). */
  name: string;
  /** Work of one key (a tenant) running at once. */
  perKey: number;
  /** Work of one key waiting for a slot; one more is refused with 429 and Retry-After. */
  queuePerKey: number;
  /** Work of all keys running at once (unbounded when absent). */
  total?: number;
}

interface Waiter {
  start(): void;
}

interface KeyState {
  running: number;
  queue: Waiter[];
}

/**
 * Fair share of expensive work between keys (tenants): each key runs at most `perKey` pieces at once and keeps at most
 * `queuePerKey` waiting; past that the caller gets 429 with a Retry-After at once, so one tenant's burst is shed
 * instead of queued in front of everyone. When a slot frees, the keys with waiting work are served in turn (round
 * robin), never first come first served across keys.
 *
 * A slot is given back on the event loop's next turn, not the moment the work ends: work that runs synchronously
 * (an evaluation, a command's computation) would otherwise hand its slot straight to the same key's next piece, and a
 * burst would run back to back before another tenant's request is even read. Giving back after I/O had its turn
 * lets the other tenants' requests in between.
 */
export class Admission {
  private readonly keys = new Map<string, KeyState>();
  /** The key whose slot the current call holds: work admitted inside admitted work (an operation calling another) runs in that slot, so a full key cannot wait on itself. */
  private readonly holding = new AsyncLocalStorage<string>();
  private running = 0;
  /** A running mean of how long admitted work takes, for Retry-After. */
  private meanMs = 50;

  constructor(readonly settings: AdmissionSettings) {}

  /** Runs `work` once admitted for `key`; throws TooManyRequestsError (429) when `key`'s queue is full. */
  async admit<T>(key: string, work: () => T | Promise<T>): Promise<T> {
    if (this.holding.getStore() === key) return work();
    const state = this.stateOf(key);
    if (!this.canRun(state)) {
      if (state.queue.length >= this.settings.queuePerKey) {
        if (!state.running && !state.queue.length) this.keys.delete(key);
        throw new TooManyRequestsError(
          `Too many ${this.settings.name} at once (${this.settings.perKey} running and ` +
            `${this.settings.queuePerKey} waiting at most); try again later`,
          this.retryAfterSeconds(state),
        );
      }
      await new Promise<void>((start) => state.queue.push({ start }));
    } else {
      this.take(state);
    }
    const started = performance.now();
    try {
      return await this.holding.run(key, work);
    } finally {
      this.meanMs += (performance.now() - started - this.meanMs) / 8;
      setImmediate(() => this.release(key, state));
    }
  }

  /** Work running and waiting now, per key (tests and metrics). */
  load(key: string): { running: number; waiting: number } {
    const s = this.keys.get(key);
    return { running: s?.running ?? 0, waiting: s?.queue.length ?? 0 };
  }

  /** Work running now, all keys together. */
  runningNow(): number {
    return this.running;
  }

  private stateOf(key: string): KeyState {
    let s = this.keys.get(key);
    if (!s) this.keys.set(key, (s = { running: 0, queue: [] }));
    return s;
  }

  private canRun(s: KeyState): boolean {
    return s.running < this.settings.perKey && this.running < (this.settings.total ?? Number.POSITIVE_INFINITY);
  }

  private take(s: KeyState): void {
    s.running++;
    this.running++;
  }

  private release(key: string, s: KeyState): void {
    s.running--;
    this.running--;
    if (!s.running && !s.queue.length) this.keys.delete(key);
    this.dispatch();
  }

  /** Starts waiting work while slots are free, one key after the other (the map's order is the turn order). */
  private dispatch(): void {
    for (let served = true; served; ) {
      served = false;
      for (const [key, s] of this.keys) {
        if (!s.queue.length || !this.canRun(s)) continue;
        const next = s.queue.shift() as Waiter;
        this.take(s);
        // The served key goes to the back of the turn order.
        this.keys.delete(key);
        this.keys.set(key, s);
        next.start();
        served = true;
        break;
      }
    }
  }

  /** Whole seconds until the key's queue has likely moved by one place; at least 1. */
  private retryAfterSeconds(s: KeyState): number {
    const perSlot = (this.meanMs * (s.queue.length + 1)) / Math.max(1, this.settings.perKey);
    return Math.max(1, Math.ceil(perSlot / 1000));
  }
}

/**
 * An operation admitted per tenant: it runs once `ctx.admission` gives its tenant a slot (429 when the tenant's
 * queue is full). Wraps the operation where it is defined, so every channel (REST, MCP, agents, mail) is admitted alike.
 */
export function admitted<C extends { tenant: { id: string } }, I, O>(
  op: (call: { ctx: C; input: I }) => O,
): (call: { ctx: C & { admission: Admission }; input: I }) => Promise<Awaited<O>> {
  return (call) => call.ctx.admission.admit(call.ctx.tenant.id, () => op(call)) as Promise<Awaited<O>>;
}
