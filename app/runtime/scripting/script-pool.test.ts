import { afterEach, describe, expect, test } from "bun:test";
import { createScriptPool, type ScriptPool } from "./script-pool";
import { SCRIPT_LIMITS } from "./script-limits";

const pools: ScriptPool[] = [];
const poolOf = (...args: Parameters<typeof createScriptPool>) => {
  const p = createScriptPool(...args);
  pools.push(p);
  return p;
};
afterEach(() => {
  for (const p of pools.splice(0)) p.close();
});

const run = (pool: ScriptPool, tenantId: string, source: string, variables: Record<string, unknown> = {}) =>
  pool.run(source, { tenantId, variables });

describe("the script pool", () => {
  test("a script reads a copy of the variables and hands back its writes in order and its value", async () => {
    const pool = poolOf({ workers: 1 });
    const out = await run(
      pool,
      "t",
      "execution.setVariable('a', execution.getVariable('a') + 1); execution.setVariable('b', execution.getVariable('a')); ({ v: execution.getVariable('missing') === undefined })",
      { a: 1 },
    );
    expect(out).toEqual({
      value: { v: true },
      writes: [
        ["a", 2],
        ["b", 2],
      ],
    });
  });

  test("one tenant occupies at most all workers but one; a later tenant's script is served before its queue drains", async () => {
    const pool = poolOf({ workers: 2 });
    const order: string[] = [];
    const tagged = (tag: string, p: Promise<unknown>) =>
      p.then(
        () => order.push(tag),
        () => order.push(tag),
      );
    // Each of A's scripts runs into the CPU-time cap: A's third can only start after two of them.
    const a = [1, 2, 3].map((i) => tagged(`a${i}`, run(pool, "A", "for (;;) {}")));
    const b = tagged("b", run(pool, "B", "1"));
    // Sampled while everything runs: A never holds both workers, though B's single script leaves one idle.
    let mostOfA = 0;
    const sampler = setInterval(() => (mostOfA = Math.max(mostOfA, pool.runningOf("A"))), 1);
    await Promise.all([...a, b]);
    clearInterval(sampler);
    expect(mostOfA).toBe(1);
    expect(order.indexOf("b")).toBeLessThan(order.indexOf("a3"));
  });

  test("waiting tenants are served round-robin, not in arrival order", async () => {
    const pool = poolOf({ workers: 1 });
    const order: string[] = [];
    const all = [
      ["A", "a1"],
      ["A", "a2"],
      ["A", "a3"],
      ["B", "b1"],
      ["C", "c1"],
    ].map(([t, tag]) => run(pool, t, `'${tag}'`).then((o) => order.push(String(o.value))));
    await Promise.all(all);
    expect(order).toEqual(["a1", "b1", "c1", "a2", "a3"]);
  });

  test("past the wall-clock deadline the worker is terminated and replaced; the next script runs", async () => {
    const pool = poolOf({ workers: 1, limits: { ...SCRIPT_LIMITS, deadlineMs: 300 } });
    await run(pool, "t", "1");
    const started = pool.stats().started;
    await expect(run(pool, "t", `for (let i=0;i<20000;i++) "x".repeat(1e6); 1`)).rejects.toThrow(
      /time limit of 300 ms \(wall clock\)/,
    );
    expect(pool.stats()).toMatchObject({ killed: 1, started: started + 1 });
    expect((await run(pool, "t", "6 * 7")).value).toBe(42);
  });

  test("a worker whose memory grew past the recycle bound is replaced after its script", async () => {
    const pool = poolOf({ workers: 1, limits: { ...SCRIPT_LIMITS, recycleBytes: 17 * 1024 * 1024 } });
    await run(pool, "t", "1");
    const started = pool.stats().started;
    const out = await run(pool, "t", `const a = []; for (let i = 0; i < 12; i++) a.push("y".repeat(1e6)); a.length`);
    expect(out.value).toBe(12);
    expect(pool.stats()).toMatchObject({ recycled: 1, started: started + 1 });
    expect((await run(pool, "t", "1 + 1")).value).toBe(2);
  });

  test("closing the pool fails the scripts still waiting", async () => {
    const pool = poolOf({ workers: 1 });
    const running = run(pool, "t", "for (;;) {}");
    const waiting = run(pool, "t", "1");
    pool.close();
    await expect(waiting).rejects.toThrow(/closed/);
    await expect(running).rejects.toThrow(/closed/);
  });
});
