import { describe, expect, test } from "bun:test";
import { evaluateDecision, parseDmn } from "../../../../engine/dmn";
import { toDmn13 } from "../../../../engine/dmn/model/namespaces";
import { DECISION_KEY, DECISION_KEY_PATTERN, newDecisionXml, refusalLines } from "./decision-template";

describe("a new decision's template table", () => {
  test("parses and evaluates with the engine: both rules reachable", async () => {
    const model = await parseDmn(newDecisionXml("credit_limit", 'Credit "limit" & <more>'));
    expect((await evaluateDecision(model, "credit_limit", { amount: 10 })).result).toBe("approved");
    expect((await evaluateDecision(model, "credit_limit", { amount: 1000 })).result).toBe("review");
  });
  test("the name is escaped and defaults to the key", () => {
    expect(newDecisionXml("k", 'A "b" & <c>')).toContain('name="A &quot;b&quot; &amp; &lt;c&gt;"');
    expect(newDecisionXml("k", "  ")).toContain('<decision id="k" name="k">');
  });
  test("a key that is no XML id is refused before anything is built", () => {
    for (const bad of ["", "1abc", "a b", "a<b", "é"]) expect(() => newDecisionXml(bad, "x")).toThrow();
    for (const good of ["a", "_a.b-c9"]) expect(DECISION_KEY.test(good)).toBe(true);
  });
  test("the input pattern says the same as the rule and compiles under the v flag", () => {
    const re = new RegExp(`^(?:${DECISION_KEY_PATTERN})$`, "v");
    for (const s of ["a", "_a.b-c9", "1abc", "a b", "a-"]) expect(re.test(s)).toBe(DECISION_KEY.test(s));
  });
  test("the template is already DMN 1.3: the namespace step leaves it as it is", async () => {
    const xml = newDecisionXml("k", "K");
    expect(await toDmn13(xml)).toBe(xml);
  });
});

describe("a refused deploy", () => {
  test("the server's sentence, then field errors it does not already say", () => {
    expect(
      refusalLines({
        message: "Invalid decision table: rule 2 has 1 input entries",
        fieldErrors: [
          { field: "rules[1]", message: "rule 2 has 1 input entries" },
          { field: "", message: "Invalid decision table: rule 2 has 1 input entries" },
        ],
      }),
    ).toEqual(["Invalid decision table: rule 2 has 1 input entries", "rules[1]: rule 2 has 1 input entries"]);
    expect(refusalLines({ message: "Invalid DMN: unparsable" })).toEqual(["Invalid DMN: unparsable"]);
  });
});
