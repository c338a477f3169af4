import { describe, expect, test } from "bun:test";
import { instanceQuery, NO_SEARCH } from "./instance-search";

const params = (q: string) => Object.fromEntries(new URLSearchParams(q));

describe("the cockpit's instance query", () => {
  test("one definition and version, running, first page by default", () => {
    expect(params(instanceQuery("leave", 2, NO_SEARCH, 0))).toEqual({
      definitionKey: "leave",
      state: "running",
      page: "0",
      size: "20",
      version: "2",
    });
  });

  test("business key, variable and whole days of the browser", () => {
    const q = params(
      instanceQuery(
        "leave",
        null,
        {
          state: "ended",
          businessKey: " LR-1 ",
          varName: "who",
          varValue: "ann",
          from: "2026-03-01",
          to: "2026-03-31",
        },
        3,
      ),
    );
    expect(q).toMatchObject({ state: "ended", businessKey: "LR-1", varName: "who", varValue: "ann", page: "3" });
    expect(q.version).toBeUndefined();
    expect(q.startedAfter).toBe(new Date(2026, 2, 1).toISOString());
    expect(q.startedBefore).toBe(new Date(2026, 3, 1).toISOString());
  });

  test("a variable name without a value is not sent", () => {
    expect(params(instanceQuery("k", null, { ...NO_SEARCH, varName: "x" }, 0)).varName).toBeUndefined();
  });
});
