import { expect, test } from "bun:test";
import { commandMemo, everyTime } from "./once";

test("a later attempt of a command gets the first attempt's answers, matched by key and occurrence", async () => {
  const memo = commandMemo();
  let asked = 0;
  const ask = (answer: string) => async () => `${answer}${++asked}`;
  const first = memo.attempt();
  expect(await first("i1/step/agent", ask("a"))).toBe("a1");
  expect(await first("i1/step/agent", ask("b"))).toBe("b2"); // a second occurrence (a multi-instance step)
  expect(await first("i2/step/agent", ask("c"))).toBe("c3");
  const second = memo.attempt();
  expect(await second("i2/step/agent", ask("x"))).toBe("c3");
  expect(await second("i1/step/agent", ask("x"))).toBe("a1");
  expect(await second("i1/step/agent", ask("x"))).toBe("b2");
  // an occurrence the first attempt never reached is asked now, once
  expect(await second("i1/step/agent", ask("d"))).toBe("d4");
  expect(await memo.attempt()("i1/step/agent", ask("x"))).toBe("a1");
  expect(asked).toBe(4);
});

test("a failure is kept like an answer; another command run (a new memo) and everyTime ask again", async () => {
  let asked = 0;
  const failing = async (): Promise<string> => {
    asked++;
    throw new Error("the model is down");
  };
  const memo = commandMemo();
  await expect(memo.attempt()("k", failing)).rejects.toThrow("the model is down");
  await expect(memo.attempt()("k", failing)).rejects.toThrow("the model is down");
  expect(asked).toBe(1);
  await expect(commandMemo().attempt()("k", failing)).rejects.toThrow("the model is down");
  await expect(everyTime("k", failing)).rejects.toThrow("the model is down");
  expect(asked).toBe(3);
});
