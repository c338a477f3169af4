import { describe, expect, test } from "bun:test";
import { REGEX_LIMITS } from "../../../engine/regex/linear";
import { mapVariables, type MessageFacts, ruleMatches } from "./match";

// Issue 28: mail rules match on RE2 (linear time), never on JavaScript's backtracking RegExp.
const facts = (subject: string, text = ""): MessageFacts => ({
  from: "a@example.com",
  to: ["orders@shop.test"],
  subject,
  text,
  date: null,
  attachmentCount: 0,
});

describe("mail rules on the linear-time engine", () => {
  test("a subject pattern that backtracks exponentially in JavaScript answers at once", () => {
    expect(ruleMatches({ subjectRegex: "^(a+)+$" }, facts(`${"a".repeat(64)}!`))).toBe(false);
    expect(ruleMatches({ subjectRegex: "^(a+)+$" }, facts("a".repeat(64)))).toBe(true);
  });

  test("named groups of JavaScript syntax still become variables", () => {
    const vars = mapVariables(
      { extract: [{ source: "SUBJECT", pattern: "Order (?<orderNo>\\d+) \\u0066rom (?<who>\\w+)" }] },
      facts("Order 4711 from ACME"),
    );
    expect(vars).toEqual({ orderNo: "4711", who: "ACME" });
  });

  test("a body over the work budget of a pattern is not searched: the condition is not met, nothing extracted", () => {
    const pattern = "(?<n>[a-z]{1000})";
    const body = "a".repeat(Math.ceil(REGEX_LIMITS.work / 1000) + 10);
    expect(mapVariables({ extract: [{ source: "BODY", pattern }] }, facts("s", body))).toEqual({});
    expect(mapVariables({ extract: [{ source: "BODY", pattern }] }, facts("s", "a".repeat(1000)))).toEqual({
      n: "a".repeat(1000),
    });
  });
});
