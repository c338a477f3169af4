import { randomBytes } from "node:crypto";
import type { Clock } from "../clock";

/**
 * An HMAC-SHA256 under a random key of its own, made at the call: digests can be compared within this process but
 * neither reversed nor recomputed elsewhere, so what is kept in memory is no usable secret. Bun's own HMAC, a little
 * quicker than node:crypto's createHmac: about 1 µs, where verifying a runner token (prefix lookup, SHA-256) costs
 * about 30 µs.
 */
export function keyedDigest(): (text: string) => string {
  const key = randomBytes(32);
  return (text) => new Bun.CryptoHasher("sha256", key).update(text).digest("base64");
}

export interface VerifiedCredentialsOptions<V> {
  /** How long a verified credential is trusted without verifying it again. */
  ttlMs: number;
  /**
   * Each use trusts the credential for `ttlMs` again (an idle timeout rather than a fixed lifetime): a busy client is
   * not verified again every `ttlMs`, while whatever a hit must re-check still refuses it at the next request.
   */
  slide?: boolean;
  /** At most this many credentials are remembered; a new one past the bound drops the oldest. */
  maxEntries: number;
  /** The time the entries expire by (a manual clock in tests, a monotonic one where wall time may jump). */
  clock: Clock;
  /** Whom a remembered value speaks for (a user, a runner): `forgetSubject` drops every credential of it. */
  subjectOf: (value: V) => string;
}

/**
 * The one memory of credentials verified recently (MCP's HTTP Basic, robot runner tokens), so that a client's every
 * request does not pay the verification again (a password hash and the login limiter; a lookup and a SHA-256).
 * Entries are keyed by an HMAC-SHA256 of the presented secret under a random key of this instance: the process memory
 * holds no usable secret, and a digest found in it can be neither reversed nor recomputed elsewhere. A collision-
 * resistant digest is needed, not a quick hash: a hit hands out the identity without looking at the secret again.
 * What a hit must still re-check (revocations, the tenant's status) is its user's business; the memory only expires,
 * bounds and forgets.
 */
export class VerifiedCredentials<V> {
  private readonly digest = keyedDigest();
  private readonly entries = new Map<string, { value: V; subject: string; until: number }>();

  constructor(private readonly options: VerifiedCredentialsOptions<V>) {}

  /** The value remembered for `secret`, or undefined (never verified, expired or forgotten). */
  get(secret: string): V | undefined {
    const key = this.digest(secret);
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    const now = this.options.clock.now();
    this.entries.delete(key);
    if (hit.until <= now) return undefined;
    // Back at the end of the map either way: the order stays the order of use, so the bound drops the idlest first.
    if (this.options.slide) hit.until = now + this.options.ttlMs;
    this.entries.set(key, hit);
    return hit.value;
  }

  /** Remembers `value` as what `secret` was verified to be, for the time-to-live from now. */
  remember(secret: string, value: V): void {
    const key = this.digest(secret);
    // Deleted first so that the map's order stays the order of verification, the oldest first.
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    const until = this.options.clock.now() + this.options.ttlMs;
    this.entries.set(key, { value, subject: this.options.subjectOf(value), until });
  }

  /** Drops `secret`: a hit that no longer holds is verified again. */
  forget(secret: string): void {
    this.entries.delete(this.digest(secret));
  }

  /** Drops every credential remembered for `subject` (a revocation that must refuse the next request). */
  forgetSubject(subject: string): void {
    for (const [key, entry] of this.entries) if (entry.subject === subject) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The map's keys, for tests that check no secret is held. */
  keys(): string[] {
    return [...this.entries.keys()];
  }
}
