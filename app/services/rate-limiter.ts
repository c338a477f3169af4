import type { Clock } from "./clock";

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

  private prune(now: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
  }
}
