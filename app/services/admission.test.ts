import { describe, expect, test } from "bun:test";
import { Admission } from "./admission";
import { TooManyRequestsError } from "./errors";

/** A piece of work the test ends when it wants. */
function gated() {
  let open!: () => void;
  const done = new Promise<void>((r) => {
    open = r;
  });
  return { done, open };
}
const settle = () => new Promise((r) => setImmediate(r));

describe("Admission", () => {
  test("serves waiting keys in turn, not first come first served", async () => {
    const adm = new Admission({ name: "work", perKey: 1, queuePerKey: 10, total: 1 });
    const order: string[] = [];
    const first = gated();
    const running = adm.admit("a", () => first.done);
    const all = [running];
    // Tenant A queues three pieces before tenant B queues one: B's runs second, not fourth.
    for (const k of ["a", "a", "a", "b"]) all.push(adm.admit(k, () => void order.push(k)));
    first.open();
    await Promise.all(all);
    expect(order).toEqual(["a", "b", "a", "a"]);
  });

  test("refuses past the key's queue with a Retry-After, other keys unaffected", async () => {
    const adm = new Admission({ name: "work", perKey: 1, queuePerKey: 1 });
    const g = gated();
    const one = adm.admit("a", () => g.done);
    const two = adm.admit("a", () => 2);
    const refused = await adm.admit("a", () => 3).catch((e) => e);
    expect(refused).toBeInstanceOf(TooManyRequestsError);
    expect((refused as TooManyRequestsError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await adm.admit("b", () => "b")).toBe("b");
    g.open();
    await one;
    expect(await two).toBe(2);
  });

  test("work admitted inside admitted work of the same key runs in the slot it holds", async () => {
    const adm = new Admission({ name: "work", perKey: 1, queuePerKey: 0 });
    expect(await adm.admit("a", () => adm.admit("a", () => "inner"))).toBe("inner");
  });

  test("never runs more than `total` at once", async () => {
    const adm = new Admission({ name: "checks", perKey: 2, queuePerKey: 50, total: 2 });
    let now = 0;
    let most = 0;
    const work = async () => {
      most = Math.max(most, ++now);
      await settle();
      now--;
    };
    await Promise.all(["a", "b", "c"].flatMap((k) => Array.from({ length: 5 }, () => adm.admit(k, work))));
    expect(most).toBe(2);
    await settle(); // slots are given back on the next turn of the loop
    expect(adm.load("a")).toEqual({ running: 0, waiting: 0 });
  });
});
