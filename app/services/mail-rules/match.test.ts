import { describe, expect, test } from "bun:test";
import { mapVariables, ruleMatches, type MessageFacts } from "./match";

const facts: MessageFacts = {
  from: "Alice@Example.com",
  to: ["orders@shop.test"],
  subject: "Order 4711 from ACME",
  text: "Amount: 12.50 EUR",
  date: "2026-01-01T00:00:00.000Z",
  attachmentCount: 1,
};

describe("mail rule matching", () => {
  test("from matches an address exactly or a domain", () => {
    expect(ruleMatches({ from: "alice@example.com" }, facts)).toBe(true);
    expect(ruleMatches({ from: "example.com" }, facts)).toBe(true);
    expect(ruleMatches({ from: "@example.com" }, facts)).toBe(true);
    expect(ruleMatches({ from: "bob@example.com" }, facts)).toBe(false);
    expect(ruleMatches({ from: "ample.com" }, facts)).toBe(false);
  });
  test("to, subject (contains, regex) and has-attachment must all hold", () => {
    expect(ruleMatches({ to: "shop.test", subjectContains: "order", hasAttachment: true }, facts)).toBe(true);
    expect(ruleMatches({ to: "other.test" }, facts)).toBe(false);
    expect(ruleMatches({ subjectRegex: "^Invoice" }, facts)).toBe(false);
    expect(ruleMatches({ hasAttachment: false }, facts)).toBe(false);
  });
  test("variables come from the message and from named groups", () => {
    const vars = mapVariables(
      { subject: "subj", from: "sender", extract: [{ source: "SUBJECT", pattern: "Order (?<orderNo>\\d+)" }] },
      facts,
    );
    expect(vars).toEqual({ subj: facts.subject, sender: "Alice@Example.com", orderNo: "4711" });
    expect(mapVariables({ extract: [{ source: "BODY", pattern: "Nothing (?<x>\\d)" }] }, facts)).toEqual({});
  });
});
