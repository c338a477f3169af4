import { describe, expect, test } from "bun:test";
import { ManualClock } from "../../app/services/clock";
import { VerifiedCredentials } from "../../app/services/auth/verified-credentials";

// Unit test of the one memory of verified credentials (MCP Basic, robot runner tokens): expiry, forgetting, the size
// bound, and that what it keeps is no usable secret. Its users' behaviour over HTTP is proven in mcp-basic-cache and
// robot-runners.
type Who = { subject: string; n: number };

const memory = (clock: ManualClock, maxEntries = 100, ttlMs = 10_000) =>
  new VerifiedCredentials<Who>({ ttlMs, maxEntries, clock, subjectOf: (w) => w.subject });

const SECRET = "pmsr_ABCDEFGHIJKL_s3cr3t-value-that-must-not-be-kept";

describe("verified credentials", () => {
  test("a credential is remembered for the time-to-live by the given clock, then forgotten", () => {
    const clock = new ManualClock();
    const m = memory(clock);
    expect(m.get(SECRET)).toBeUndefined();
    m.remember(SECRET, { subject: "r1", n: 1 });
    expect(m.get(SECRET)).toEqual({ subject: "r1", n: 1 });
    clock.advance(9_999);
    expect(m.get(SECRET)?.n).toBe(1);
    clock.advance(1); // the time-to-live is over at its last millisecond
    expect(m.get(SECRET)).toBeUndefined();
    expect(m.size).toBe(0); // an expired entry found is dropped
    // Remembered again: counted from the new verification.
    m.remember(SECRET, { subject: "r1", n: 2 });
    clock.advance(9_999);
    expect(m.get(SECRET)?.n).toBe(2);
  });

  test("only the very secret hits: a near one, a prefix, an extension miss", () => {
    const m = memory(new ManualClock());
    m.remember(SECRET, { subject: "r1", n: 1 });
    for (const other of [`${SECRET}x`, SECRET.slice(0, -1), SECRET.toUpperCase(), "", " "])
      expect(m.get(other)).toBeUndefined();
  });

  test("a revocation forgets every credential of its subject at once, and only those", () => {
    const clock = new ManualClock();
    const m = memory(clock);
    m.remember("token-a1", { subject: "runner-a", n: 1 });
    m.remember("token-a2", { subject: "runner-a", n: 2 });
    m.remember("token-b", { subject: "runner-b", n: 3 });
    expect(m.get("token-a1")?.n).toBe(1); // used just before the revocation
    m.forgetSubject("runner-a");
    expect(m.get("token-a1")).toBeUndefined();
    expect(m.get("token-a2")).toBeUndefined();
    expect(m.get("token-b")?.n).toBe(3);
    m.forget("token-b");
    expect(m.get("token-b")).toBeUndefined();
    expect(m.size).toBe(0);
  });

  test("at most maxEntries are kept: a new credential past the bound drops the one verified longest ago", () => {
    const clock = new ManualClock();
    const m = memory(clock, 3);
    for (const s of ["s1", "s2", "s3"]) {
      m.remember(s, { subject: s, n: 0 });
      clock.advance(1);
    }
    m.remember("s1", { subject: "s1", n: 1 }); // verified again: now the newest
    m.remember("s4", { subject: "s4", n: 4 });
    expect(m.size).toBe(3);
    expect(m.get("s2")).toBeUndefined();
    expect(m.get("s1")?.n).toBe(1);
    expect(m.get("s3")).toBeDefined();
    expect(m.get("s4")).toBeDefined();
    for (let i = 0; i < 50; i++) m.remember(`many-${i}`, { subject: "x", n: i });
    expect(m.size).toBe(3);
    expect(m.get("many-49")?.n).toBe(49);
  });

  test("the memory keeps no usable secret: its keys are keyed digests, different in every instance", () => {
    const clock = new ManualClock();
    const a = memory(clock);
    const b = memory(clock);
    a.remember(SECRET, { subject: "r1", n: 1 });
    b.remember(SECRET, { subject: "r1", n: 1 });
    const [keyA] = a.keys();
    const [keyB] = b.keys();
    expect(keyA).not.toBe(SECRET);
    expect(keyA).not.toContain(SECRET);
    // No long piece of the secret either (its random part, in any encoding a key might use).
    for (const piece of [SECRET.slice(18), Buffer.from(SECRET).toString("base64").slice(4, 30)])
      expect(keyA).not.toContain(piece);
    expect(Buffer.from(keyA, "base64")).toHaveLength(32); // an HMAC-SHA256
    // A per-instance key: the same secret gives another digest elsewhere, and a plain hash of it is neither.
    expect(keyB).not.toBe(keyA);
    expect(keyA).not.toBe(new Bun.CryptoHasher("sha256").update(SECRET).digest("base64"));
  });
});
