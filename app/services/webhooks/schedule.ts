/** Waits after the 1st … 7th failed attempt: 8 attempts spread over about 24 h (Standard Webhooks' own schedule, trimmed). */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  8 * 3_600_000,
  8 * 3_600_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** An endpoint failing this long without one success is disabled. */
export const DISABLE_AFTER_MS = 24 * 3_600_000;
/** Jitter: each wait is stretched or shrunk by up to this share, so endpoints that failed together do not retry together. */
export const JITTER = 0.1;

/** When the delivery is tried again after `attempts` failures, or null when they are used up. */
export function nextAttemptAt(now: number, attempts: number, random: () => number = Math.random): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_MS[attempts - 1];
  return now + Math.round(base * (1 + JITTER * (2 * random() - 1)));
}
