import { describe, expect, test } from "bun:test";
import { toJsonValue } from "../feel";
import { evaluateDecision } from "./drg/evaluate";
import { DmnEvaluationError } from "./errors";
import { parseDmn } from "./model/parse";
import { definitions, esc, rows, tableDecision } from "./test-support";

// DMN 1.5 §10.3.2.9.4 type conversions, our own cases written from the specification's rules.

const typed = (typeRef: string) => (typeRef ? ` typeRef="${typeRef}"` : "");
/** A decision whose variable has `typeRef` and whose literal expression (with `exprType`) is `text`. */
const literal = (name: string, text: string, typeRef = "", extra = "", exprType = "") =>
  `<decision id="${name}" name="${name}">${extra}<variable name="${name}"${typed(typeRef)}/><literalExpression${typed(exprType)}><text>${esc(text)}</text></literalExpression></decision>`;
const needs = (kind: "requiredDecision" | "requiredInput" | "requiredKnowledge", id: string) =>
  kind === "requiredKnowledge"
    ? `<knowledgeRequirement><requiredKnowledge href="#${id}"/></knowledgeRequirement>`
    : `<informationRequirement><${kind} href="#${id}"/></informationRequirement>`;
const bkm = (name: string, params: string, body: string, bodyType = "") =>
  `<businessKnowledgeModel id="${name}" name="${name}"><variable name="${name}"/><encapsulatedLogic>${params}<literalExpression${typed(bodyType)}><text>${esc(body)}</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>`;

const TYPES = `
  <itemDefinition name="tNumbers" isCollection="true"><typeRef>number</typeRef></itemDefinition>
  <itemDefinition name="tStrings" isCollection="true"><typeRef>string</typeRef></itemDefinition>
  <itemDefinition name="tPerson"><itemComponent name="name"><typeRef>string</typeRef></itemComponent><itemComponent name="age"><typeRef>number</typeRef></itemComponent></itemDefinition>
  <itemDefinition name="tGrade"><typeRef>string</typeRef><allowedValues><text>"A","B"</text></allowedValues></itemDefinition>
  <itemDefinition name="tStamps" isCollection="true"><typeRef>dateTime</typeRef></itemDefinition>`;

const model = parseDmn(
  definitions(`${TYPES}
  ${literal("unwrap", '["foo"]', "string")}
  ${literal("unwrapWrong", "[1]", "string")}
  ${literal("unwrapTwo", '["a", "b"]', "string")}
  ${literal("wrap", '"foo"', "tStrings")}
  ${literal("wrapWrong", '"foo"', "tNumbers")}
  ${literal("wrapNull", "null", "tStrings")}
  ${literal("wrapAny", "7", "list")}
  ${literal("listOf", "[1, 2]", "list<number>")}
  ${literal("listOfWrong", '[1, "x"]', "list<number>")}
  ${literal("collection", "[1, 2, 3]", "tNumbers")}
  ${literal("collectionWrong", '[1, 2, "foo"]', "tNumbers")}
  ${literal("midnight", 'date("2024-03-01")', "dateTime")}
  ${literal("stamps", '[date("2024-03-01"), date and time("2024-03-02T10:00:00Z")]', "tStamps")}
  ${literal("notADate", 'date and time("2024-03-01T10:00:00")', "date")}
  ${literal("wrongType", "1 + 1", "string")}
  ${literal("numberText", '"10"', "number")}
  ${literal("integer", "10 / 4", "integer")}
  ${literal("dtDuration", 'duration("P1Y")', "days and time duration")}
  ${literal("ymDuration", 'duration("P1Y")', "years and months duration")}
  ${literal("person", '{name: "Ann", surname: "Lee", age: 40}', "tPerson")}
  ${literal("personPart", '{name: "Ann"}', "tPerson")}
  ${literal("personWrong", '{name: "Ann", age: "forty"}', "tPerson")}
  ${literal("grade", '"A"', "tGrade")}
  ${literal("gradeWrong", '"C"', "tGrade")}
  ${literal("downstream", 'if wrongType = null then "was null" else "kept"', "string", needs("requiredDecision", "wrongType"))}
  ${literal("exprTyped", '"foo"', "", "", "number")}
  ${literal("unknownType", '"foo"', "tNotDeclared")}
  ${bkm("isGiven", '<formalParameter name="p" typeRef="tPerson"/>', "p != null")}
  ${bkm("asStrings", '<formalParameter name="x"/>', "x", "tStrings")}
  ${bkm("hours", '<formalParameter name="t" typeRef="dateTime"/>', "t.hour")}
  ${literal("paramOk", 'isGiven({name: "Ann", age: 40})', "", needs("requiredKnowledge", "isGiven"))}
  ${literal("paramWrong", 'isGiven({name: "Ann"})', "", needs("requiredKnowledge", "isGiven"))}
  ${literal("bkmWrap", 'asStrings("a")', "", needs("requiredKnowledge", "asStrings"))}
  ${literal("bkmWrong", "asStrings(1)", "", needs("requiredKnowledge", "asStrings"))}
  ${literal("paramDate", 'hours(date("2024-03-01"))', "", needs("requiredKnowledge", "hours"))}
  <decision id="invoked" name="invoked"><variable name="invoked"/>${needs("requiredKnowledge", "isGiven")}
    <invocation typeRef="string"><literalExpression><text>isGiven</text></literalExpression>
      <binding><parameter name="p"/><literalExpression><text>{name: "Ann", age: 1}</text></literalExpression></binding></invocation></decision>
  <decision id="ctx" name="ctx"><variable name="ctx"/><context>
    <contextEntry><variable name="a" typeRef="number"/><literalExpression><text>"one"</text></literalExpression></contextEntry>
    <contextEntry><variable name="b" typeRef="tStrings"/><literalExpression><text>"two"</text></literalExpression></contextEntry>
    <contextEntry><variable name="c"/><literalExpression><text>a = null</text></literalExpression></contextEntry>
  </context></decision>
  <decision id="fnParam" name="fnParam"><variable name="fnParam"/><context>
    <contextEntry><variable name="f"/><functionDefinition><formalParameter name="n" typeRef="number"/><literalExpression><text>n = null</text></literalExpression></functionDefinition></contextEntry>
    <contextEntry><literalExpression><text>[f(1), f("1"), f([2])]</text></literalExpression></contextEntry>
  </context></decision>`),
);

const result = async (name: string, variables: Record<string, unknown> = {}) =>
  toJsonValue(evaluateDecision(await model, name, variables).result);

describe("singleton lists (§10.3.2.9.4)", () => {
  test("a one-item list where a non-list type is expected is its item, if the item conforms", async () => {
    expect(await result("unwrap")).toBe("foo");
    expect(await result("unwrapWrong")).toBeNull();
    expect(await result("unwrapTwo")).toBeNull();
  });

  test("a value where a list type is expected is a singleton list, if it conforms to the item type", async () => {
    expect(await result("wrap")).toEqual(["foo"]);
    expect(await result("wrapWrong")).toBeNull();
    expect(await result("wrapAny")).toEqual([7]);
    expect(await result("wrapNull")).toBeNull(); // null is not wrapped
  });

  test("list<T> and isCollection item definitions check every item", async () => {
    expect(await result("listOf")).toEqual([1, 2]);
    expect(await result("listOfWrong")).toBeNull();
    expect(await result("collection")).toEqual([1, 2, 3]);
    expect(await result("collectionWrong")).toBeNull();
  });
});

describe("implicit conversion of a date to a date and time", () => {
  test("a date where a date and time is expected is that date at midnight UTC", async () => {
    expect(await result("midnight")).toBe("2024-03-01T00:00:00Z");
    expect(await result("stamps")).toEqual(["2024-03-01T00:00:00Z", "2024-03-02T10:00:00Z"]);
    expect(await result("paramDate")).toBe(0);
  });

  test("there is no conversion the other way: a date and time is not a date", async () => {
    expect(await result("notADate")).toBeNull();
  });
});

describe("a value that does not conform to its type is null", () => {
  test("a decision's result against its variable's typeRef", async () => {
    expect(await result("wrongType")).toBeNull();
    expect(await result("numberText")).toBeNull(); // no implicit string → number
    expect(await result("integer")).toBe(2.5); // integer is an alias of number
    expect(await result("dtDuration")).toBeNull();
    expect(await result("ymDuration")).toBe("P1Y");
    expect(await result("unknownType")).toBe("foo"); // a type the model does not declare is Any
  });

  test("the requiring decision sees the null and goes on", async () => {
    expect(await result("downstream")).toBe("was null");
  });

  test("structures need every component, may have more, and components convert too", async () => {
    expect(await result("person")).toEqual({ name: "Ann", surname: "Lee", age: 40 });
    expect(await result("personPart")).toBeNull();
    expect(await result("personWrong")).toBeNull();
  });

  test("allowed values are part of the type", async () => {
    expect(await result("grade")).toBe("A");
    expect(await result("gradeWrong")).toBeNull();
  });

  test("a boxed expression's own typeRef, an invocation's and a context entry's", async () => {
    expect(await result("exprTyped")).toBeNull();
    expect(await result("invoked")).toBeNull(); // the BKM gives true, the invocation is typed string
    expect(await result("ctx")).toEqual({ a: null, b: ["two"], c: true });
  });

  test("a BKM parameter is null when its argument does not conform; a BKM body's typeRef converts its result", async () => {
    expect(await result("paramOk")).toBe(true);
    expect(await result("paramWrong")).toBe(false);
    expect(await result("bkmWrap")).toEqual(["a"]);
    expect(await result("bkmWrong")).toBeNull();
  });

  test("a boxed function definition's typed parameters likewise (a singleton list argument unwraps)", async () => {
    expect(await result("fnParam")).toEqual([false, true, false]);
  });
});

describe("inputs use the same conversions, and refuse what does not conform", () => {
  const inputs = parseDmn(
    definitions(`${TYPES}
    <inputData id="i_names" name="names"><variable name="names" typeRef="tStrings"/></inputData>
    <inputData id="i_at" name="at"><variable name="at" typeRef="dateTime"/></inputData>
    <inputData id="i_n" name="n"><variable name="n" typeRef="number"/></inputData>
    <inputData id="i_p" name="p"><variable name="p" typeRef="tPerson"/></inputData>
    ${literal("age", "p.age", "", needs("requiredInput", "i_p"))}
    ${literal("count", "count(names)", "number", needs("requiredInput", "i_names"))}
    ${literal("hour", "at.hour", "number", needs("requiredInput", "i_at"))}
    ${literal("double", "n * 2", "number", needs("requiredInput", "i_n"))}`),
  );
  const run = async (name: string, variables: Record<string, unknown>) =>
    toJsonValue(evaluateDecision(await inputs, name, variables).result);

  test("a single value for a list input is a singleton list; a one-item list for a number is its item", async () => {
    expect(await run("count", { names: "Ann" })).toBe(1);
    expect(await run("double", { n: [21] })).toBe(42);
  });

  test("a caller's structure may leave a component out (JSON omits nulls); a present one must conform", async () => {
    expect(await run("age", { p: { name: "Ann" } })).toBeNull();
    expect(await run("age", { p: { name: "Ann", age: [40] } })).toBe(40);
    await expect(run("age", { p: { name: "Ann", age: "40" } })).rejects.toThrow(/'p.age' expects number, got "40"/);
  });

  test("a date string for a date and time input is midnight UTC", async () => {
    expect(await run("hour", { at: "2024-03-01" })).toBe(0);
    expect(await run("hour", { at: "2024-03-01T13:30:00Z" })).toBe(13);
  });

  test("a caller's value that does not conform is a 422-class error naming the input (not a silent null)", async () => {
    await expect(run("double", { n: "21" })).rejects.toThrow(DmnEvaluationError);
    await expect(run("double", { n: [1, 2] })).rejects.toThrow(/'n' expects number, got a list of 2/);
    await expect(run("count", { names: ["a", 1] })).rejects.toThrow(/'names\[1\]' expects string, got 1/);
  });
});

describe("decision table outputs", () => {
  test("each output entry converts to its output's typeRef (a default entry too)", async () => {
    const m = await parseDmn(
      definitions(
        TYPES +
          tableDecision({
            hitPolicy: "FIRST",
            inputs: [{ expr: "x" }],
            outputs: [
              { name: "tags", typeRef: "tStrings" },
              { name: "n", typeRef: "number", default: '"none"' },
            ],
            rules: rows(["1", '"a"', "[5]"], ["2", "[1]", '"five"']),
          }),
      ),
    );
    const run = (x: number) => toJsonValue(evaluateDecision(m, "decision", { x }).result);
    expect(run(1)).toEqual({ tags: ["a"], n: 5 });
    expect(run(2)).toEqual({ tags: null, n: null });
    expect(run(3)).toEqual({ tags: null, n: null });
  });
});

describe("decision services called as functions", () => {
  test("an argument that does not conform to the service's inputData type is null there, not a caller error", async () => {
    const m = await parseDmn(
      definitions(`
      <inputData id="i_s" name="s"><variable name="s" typeRef="string"/></inputData>
      ${literal("echo", "s", "", needs("requiredInput", "i_s"))}
      <decisionService id="svc" name="svc"><variable name="svc"/><outputDecision href="#echo"/><inputData href="#i_s"/></decisionService>
      ${literal("callText", 'svc("a")', "", needs("requiredKnowledge", "svc"))}
      ${literal("callNumber", "svc(1)", "", needs("requiredKnowledge", "svc"))}
      ${literal("callList", 'svc(["b"])', "", needs("requiredKnowledge", "svc"))}`),
    );
    const run = (name: string) => evaluateDecision(m, name, {}).result;
    expect(run("callText")).toBe("a");
    expect(run("callNumber")).toBeNull();
    expect(run("callList")).toBe("b");
  });
});
