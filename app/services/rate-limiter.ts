import type { Clock } from "./clock";
import { BackoffLimiter } from "./backoff-limiter";
import { Admission } from "./admission";

/** Fixed-window counter per key; old windows are pruned lazily so memory stays bounded by active keys. */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly windowMs: number,
  ) {}

  /** Counts one hit for `key`; false when the key already used `limit` hits in the current window. */
  hit(key: string, limit: number): boolean {
    if (limit <= 0) return true;
    const now = this.clock.now();
    const w = this.windows.get(key);
    if (!w || now - w.start >= this.windowMs) {
      if (this.windows.size > 50_000) this.prune(now);
      this.windows.set(key, { start: now, count: 1 });
      return true;
    }
    if (w.count >= limit) return false;
    w.count++;
    return true;
  }

  /** True when `key` has no hit left, without counting one. */
  exhausted(key: string, limit: number): boolean {
    const w = this.windows.get(key);
    return !!w && this.clock.now() - w.start < this.windowMs && w.count >= limit;
  }

  reset(key: string): void {
    this.windows.delete(key);
  }

  /** Whole seconds until `key`'s window ends (the Retry-After of a refusal); at least 1. */
  retryAfterSeconds(key: string): number {
    const w = this.windows.get(key);
    const left = w ? w.start + this.windowMs - this.clock.now() : 0;
    return Math.max(1, Math.ceil(left / 1000));
  }

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}

/** The limiters of the service (docs/_notes-hardening.md gives the numbers and why). */
export interface Limiters {
  /** Login attempts per address per minute, whatever their outcome. */
  loginIp: RateLimiter;
  /** Failed logins per address, across accounts: exponential backoff. */
  loginIpFailures: BackoffLimiter;
  /** Failed logins per (account, address): exponential backoff that never binds the owner elsewhere. */
  loginAccount: BackoffLimiter;
  forgotIp: RateLimiter;
  apiKey: RateLimiter;
  /**
   * Password hashes (argon2id, ~340 ms of a core each) computed at once, one core left to the JavaScript thread;
   * waiting checks are served in turn per tenant (or per address when none is named).
   */
  passwordHashing: Admission;
}

export function createLimiters(
  clock: Clock,
  passwordHashing: { concurrency: number; queuePerKey: number } = { concurrency: 1, queuePerKey: 32 },
): Limiters {
  const minute = 60_000;
  return {
    passwordHashing: new Admission({
      name: "password checks",
      perKey: passwordHashing.concurrency,
      queuePerKey: passwordHashing.queuePerKey,
      total: passwordHashing.concurrency,
    }),
    loginIp: new RateLimiter(clock, minute),
    loginIpFailures: new BackoffLimiter(clock, {
      freeFailures: 20,
      baseDelayMs: 1000,
      maxDelayMs: 15 * minute,
      forgetAfterMs: 15 * minute,
    }),
    loginAccount: new BackoffLimiter(clock, {
      freeFailures: 5,
      baseDelayMs: 1000,
      maxDelayMs: 15 * minute,
      forgetAfterMs: 15 * minute,
    }),
    forgotIp: new RateLimiter(clock, 15 * minute),
    apiKey: new RateLimiter(clock, minute),
  };
}
