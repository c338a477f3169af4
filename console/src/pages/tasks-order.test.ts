import { describe, expect, test } from "bun:test";
import { dueWindow, EMPTY_FILTER, readSaved, savedKey, taskQuery, withSaved } from "./tasks-order";

const NOW = new Date(2026, 10, 28, 15, 30); // local time, as the browser's day
const params = (q: string) => Object.fromEntries(new URLSearchParams(q));

describe("the tasklist's query", () => {
  test("an empty filter sends nothing (the inbox's fast path)", () => {
    expect(taskQuery(EMPTY_FILTER, NOW)).toBe("");
  });

  test("each choice becomes its parameter", () => {
    const q = taskQuery(
      {
        ...EMPTY_FILTER,
        show: "mine",
        processKey: "leave",
        candidateGroup: "hr",
        assignee: "u-1",
        search: "  ann  ",
        varName: "customer",
        varValue: "ACME",
        sort: "due",
      },
      NOW,
    );
    expect(params(q)).toEqual({
      mine: "true",
      processKey: "leave",
      candidateGroup: "hr",
      assignee: "u-1",
      search: "ann",
      varName: "customer",
      varValue: "ACME",
      sort: "due",
    });
  });

  test("open to claim asks for unassigned tasks and drops a chosen assignee", () => {
    expect(params(taskQuery({ ...EMPTY_FILTER, show: "candidate", assignee: "u-1" }, NOW))).toEqual({
      unassigned: "true",
    });
  });

  test("a variable name without a value waits (the server refuses one alone)", () => {
    expect(taskQuery({ ...EMPTY_FILTER, varName: "customer" }, NOW)).toBe("");
  });

  test("due windows follow the browser's day", () => {
    const midnight = new Date(2026, 10, 28).getTime();
    expect(dueWindow("overdue", NOW)).toEqual({ dueBefore: NOW.toISOString() });
    expect(dueWindow("today", NOW)).toEqual({
      dueAfter: new Date(midnight).toISOString(),
      dueBefore: new Date(midnight + 86_400_000).toISOString(),
    });
    expect(dueWindow("week", NOW).dueBefore).toBe(new Date(midnight + 7 * 86_400_000).toISOString());
    expect(dueWindow("", NOW)).toEqual({});
  });
});

describe("saved filters", () => {
  test("are kept per company and user", () => {
    expect(savedKey("acme", "u-1")).not.toBe(savedKey("acme", "u-2"));
    expect(savedKey("acme", "u-1")).not.toBe(savedKey("beta", "u-1"));
  });

  test("read back with defaults; unreadable entries and values are dropped", () => {
    const raw = JSON.stringify([
      { name: "Mine by due", filter: { show: "mine", sort: "due" } },
      { name: "", filter: {} },
      { name: "odd", filter: { sort: "oldest", processKey: 7, search: "x" } },
      "junk",
    ]);
    expect(readSaved(raw)).toEqual([
      { name: "Mine by due", filter: { ...EMPTY_FILTER, show: "mine", sort: "due" } },
      { name: "odd", filter: { ...EMPTY_FILTER, search: "x" } },
    ]);
    expect(readSaved("{not json")).toEqual([]);
    expect(readSaved(null)).toEqual([]);
  });

  test("saving under an existing name replaces it in place", () => {
    const a = withSaved([], "A", EMPTY_FILTER);
    const b = withSaved(a, "B", { ...EMPTY_FILTER, sort: "name" });
    const a2 = withSaved(b, " A ", { ...EMPTY_FILTER, sort: "due" });
    expect(a2.map((s) => [s.name, s.filter.sort])).toEqual([
      ["A", "due"],
      ["B", "name"],
    ]);
  });
});
