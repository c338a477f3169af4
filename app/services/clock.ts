/** Source of time for everything that expires or is rate limited; tests pass a manual clock. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A clock tests move by hand: no sleeps. */
export class ManualClock implements Clock {
  constructor(private t = Date.parse("2026-01-01T00:00:00Z")) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}
