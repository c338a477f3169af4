import type { Clock } from "./clock";

interface Entry {
  failures: number;
  blockedUntil: number;
  lastFailure: number;
}

export interface BackoffOptions {
  /** Failures allowed before any wait. */
  freeFailures: number;
  /** The first wait; each further failure doubles it. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** A key with no failure for this long starts over. */
  forgetAfterMs: number;
}

/**
 * Failure-driven exponential backoff per key (login by (account, address) and by address). Unlike a hard lock, a
 * wait always ends, and it only binds the key that failed: a stranger guessing from elsewhere cannot keep the owner
 * out. Memory is bounded by pruning forgotten keys.
 */
export class BackoffLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly opts: BackoffOptions,
  ) {}

  /** Milliseconds `key` must still wait; 0 when it may try now. */
  waitMs(key: string): number {
    const e = this.live(key);
    return e ? Math.max(0, e.blockedUntil - this.clock.now()) : 0;
  }

  /** Counts a failure; past the free ones, the next attempt must wait base × 2^(extra failures − 1). */
  fail(key: string): void {
    const now = this.clock.now();
    const e = this.live(key) ?? { failures: 0, blockedUntil: 0, lastFailure: now };
    e.failures++;
    e.lastFailure = now;
    const extra = e.failures - this.opts.freeFailures;
    if (extra > 0) {
      const delay = Math.min(this.opts.maxDelayMs, this.opts.baseDelayMs * 2 ** Math.min(extra - 1, 30));
      e.blockedUntil = now + delay;
    }
    if (this.entries.size > 50_000) this.prune(now);
    this.entries.set(key, e);
  }

  reset(key: string): void {
    this.entries.delete(key);
  }

  private live(key: string): Entry | undefined {
    const e = this.entries.get(key);
    if (e && this.forgotten(e, this.clock.now())) {
      this.entries.delete(key);
      return undefined;
    }
    return e;
  }

  private forgotten(e: Entry, now: number): boolean {
    return now - e.lastFailure >= this.opts.forgetAfterMs && now >= e.blockedUntil;
  }

  private prune(now: number): void {
    for (const [k, e] of this.entries) if (this.forgotten(e, now)) this.entries.delete(k);
  }
}
