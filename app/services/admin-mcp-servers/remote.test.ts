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
});
