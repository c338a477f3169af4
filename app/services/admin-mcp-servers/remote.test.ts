import { describe, expect, test } from "bun:test";
import { Slots } from "./remote";

describe("exchanges with one MCP server at once", () => {
  test("at most the limit run; the others wait in order and all finish", async () => {
    const slots = new Slots(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, () => Promise.withResolvers<void>());
    const runs = gates.map((g, i) =>
      slots.run(async () => {
        started.push(i);
        most = Math.max(most, ++running);
        await g.promise;
        running--;
        return i;
      }),
    );
    await Bun.sleep(0);
    expect(started).toEqual([0, 1]);
    gates[1].resolve();
    await runs[1];
    await Bun.sleep(0);
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.resolve();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  test("a failing exchange gives its slot back", async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await slots.run(async () => "next")).toBe("next");
  });

  test("a waiter whose run was aborted leaves the queue without running; the next waiter gets the slot", async () => {
    const slots = new Slots(1);
    let release!: () => void;
    const first = slots.run(() => new Promise<string>((r) => (release = () => r("first"))));
    const abort = new AbortController();
    let ranAborted = false;
    const aborted = slots.run(async () => {
      ranAborted = true;
      return "aborted";
    }, abort.signal);
    const third = slots.run(async () => "third");
    abort.abort(new Error("the turn timed out"));
    await expect(aborted).rejects.toThrow("the turn timed out");
    release();
    expect(await first).toBe("first");
    expect(await third).toBe("third");
    expect(ranAborted).toBe(false);
    const already = new AbortController();
    already.abort(new Error("over"));
    await expect(slots.run(async () => "never", already.signal)).rejects.toThrow("over");
  });
});
