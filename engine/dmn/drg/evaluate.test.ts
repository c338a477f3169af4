import { describe, expect, test } from "bun:test";
import { DmnDecisionNotFoundError, DmnEvaluationError } from "../errors";
import { toJsonValue } from "../../feel";
import { parseDmn } from "../model/parse";
import { definitions, esc, rows, tableDecision } from "../test-support";
import { evaluateDecision } from "./evaluate";

const literal = (id: string, text: string, requires = "", typeRef = "") =>
  `<decision id="${id}" name="${id}">${requires}<variable name="${id}"${typeRef ? ` typeRef="${typeRef}"` : ""}/><literalExpression><text>${esc(text)}</text></literalExpression></decision>`;
const input = (id: string, name: string, typeRef?: string) =>
  `<inputData id="${id}" name="${name}"><variable name="${name}"${typeRef ? ` typeRef="${typeRef}"` : ""}/></inputData>`;
const needsInput = (id: string) =>
  `<informationRequirement id="ir_${id}_${Math.random().toString(36).slice(2, 8)}"><requiredInput href="#${id}"/></informationRequirement>`;
const needsDecision = (id: string) =>
  `<informationRequirement id="ird_${id}_${Math.random().toString(36).slice(2, 8)}"><requiredDecision href="#${id}"/></informationRequirement>`;
const needsKnowledge = (id: string) =>
  `<knowledgeRequirement id="kr_${id}_${Math.random().toString(36).slice(2, 8)}"><requiredKnowledge href="#${id}"/></knowledgeRequirement>`;

describe("typed inputs", () => {
  const model = parseDmn(
    definitions(`
    ${input("i_d", "Start", "date")}${input("i_t", "At", "time")}${input("i_dt", "When", "dateTime")}
    ${input("i_dur", "Wait", "days and time duration")}${input("i_ym", "Term", "years and months duration")}
    ${input("i_n", "Amount", "number")}${input("i_b", "Flag", "boolean")}
    <itemDefinition name="tLoan"><itemComponent name="amount"><typeRef>number</typeRef></itemComponent><itemComponent name="start"><typeRef>date</typeRef></itemComponent></itemDefinition>
    <itemDefinition name="tDates" isCollection="true"><typeRef>date</typeRef></itemDefinition>
    <itemDefinition name="tColor"><typeRef>string</typeRef><allowedValues><text>"red","green"</text></allowedValues></itemDefinition>
    ${input("i_loan", "Loan", "tLoan")}${input("i_dates", "Dates", "tDates")}${input("i_color", "Color", "tColor")}
    ${literal("nextDay", 'Start + duration("P1D")', needsInput("i_d"))}
    ${literal("later", "At + Wait", needsInput("i_t") + needsInput("i_dur"))}
    ${literal("year", "When.year", needsInput("i_dt"))}
    ${literal("end", "Start + Term", needsInput("i_d") + needsInput("i_ym"))}
    ${literal("double", "if Flag then Amount * 2 else Amount", needsInput("i_n") + needsInput("i_b"))}
    ${literal("loanEnd", 'Loan.start + duration("P10D")', needsInput("i_loan"))}
    ${literal("latest", 'Dates[2] + duration("P1D")', needsInput("i_dates"))}
    ${literal("color", "Color", needsInput("i_color"))}`),
  );

  test("turn strings into dates, times, date-times and durations by the declared typeRef", async () => {
    const m = await model;
    expect(toJsonValue(evaluateDecision(m, "nextDay", { Start: "2024-02-28" }).result)).toBe("2024-02-29");
    expect(toJsonValue(evaluateDecision(m, "later", { At: "10:00:00", Wait: "PT90M" }).result)).toBe("11:30:00");
    expect(evaluateDecision(m, "year", { When: "2023-06-01T12:00:00" }).result).toBe(2023);
    expect(toJsonValue(evaluateDecision(m, "end", { Start: "2024-01-31", Term: "P1M" }).result)).toBe("2024-02-29");
  });

  test("pass numbers and booleans through", async () => {
    expect(evaluateDecision(await model, "double", { Amount: 21, Flag: true }).result).toBe(42);
  });

  test("convert the components of structures and the items of collections", async () => {
    const m = await model;
    expect(toJsonValue(evaluateDecision(m, "loanEnd", { Loan: { amount: 1, start: "2024-01-01" } }).result)).toBe(
      "2024-01-11",
    );
    expect(
      toJsonValue(evaluateDecision(m, "latest", { Dates: ["2024-01-01", "2025-03-01", "2023-12-31"] }).result),
    ).toBe("2025-03-02");
  });

  test("refuse values of the wrong type with a message naming the input", async () => {
    const m = await model;
    expect(() => evaluateDecision(m, "nextDay", { Start: "not a date" })).toThrow(
      /'Start' expects date, got "not a date"/,
    );
    expect(() => evaluateDecision(m, "double", { Amount: "21", Flag: true })).toThrow(DmnEvaluationError);
    expect(() => evaluateDecision(m, "latest", { Dates: ["2024-01-01", 5] })).toThrow(
      /'Dates\[1\]' expects date, got 5/,
    );
  });

  test("refuse a value outside the item definition's allowed values", async () => {
    const m = await model;
    expect(evaluateDecision(m, "color", { Color: "red" }).result).toBe("red");
    expect(() => evaluateDecision(m, "color", { Color: "blue" })).toThrow(
      /not among the allowed values "red","green" of tColor/,
    );
  });

  test("treat a missing input as null", async () => {
    expect(evaluateDecision(await model, "double", { Flag: false }).result).toBeNull();
  });

  test("convert a table input declared as a date even without inputData", async () => {
    const m = await parseDmn(
      definitions(
        tableDecision({
          hitPolicy: "FIRST",
          inputs: [{ expr: "due", typeRef: "date" }],
          outputs: [{ name: "late" }],
          rules: rows(['< date("2024-01-01")', "true"], ["-", "false"]),
        }),
      ),
    );
    expect(evaluateDecision(m, "decision", { due: "2023-12-31" }).result).toBe(true);
    expect(evaluateDecision(m, "decision", { due: "2024-06-01" }).result).toBe(false);
  });
});

describe("the decision requirements graph", () => {
  const bkm = `<businessKnowledgeModel id="b_pmt" name="PMT"><variable name="PMT"/>
    <encapsulatedLogic><formalParameter name="p" typeRef="number"/><formalParameter name="r" typeRef="number"/><formalParameter name="n" typeRef="number"/>
    <literalExpression><text>(p*r/12)/(1-(1+r/12)**-n)</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>`;
  const invocation = `<decision id="d_pay" name="Payment">${needsInput("i_loan")}${needsKnowledge("b_pmt")}<variable name="Payment"/>
    <invocation><literalExpression><text>PMT</text></literalExpression>
      <binding><parameter name="p"/><literalExpression><text>Loan.amount</text></literalExpression></binding>
      <binding><parameter name="r"/><literalExpression><text>Loan.rate</text></literalExpression></binding>
      <binding><parameter name="n"/><literalExpression><text>Loan.term</text></literalExpression></binding>
    </invocation></decision>`;
  const model = parseDmn(
    definitions(`${input("i_loan", "Loan")}${input("i_fee", "Fee", "number")}${bkm}${invocation}
    ${literal("d_total", "Payment + Fee", needsDecision("d_pay") + needsInput("i_fee"))}
    ${literal("d_direct", "PMT(1000, 0.12, 12)", needsKnowledge("b_pmt"))}
    <decisionService id="s_total" name="Total service"><outputDecision href="#d_total"/><inputDecision href="#d_pay"/><inputData href="#i_fee"/></decisionService>
    ${literal("d_viaService", "Total service(5, 100)", needsKnowledge("s_total"))}`),
  );

  test("evaluate required decisions first and pass their results by name", async () => {
    const r = evaluateDecision(await model, "d_total", { Loan: { amount: 600000, rate: 0.0375, term: 360 }, Fee: 100 });
    expect(r.result as number).toBeCloseTo(2878.69354943277, 8);
  });

  test("call a BKM through an invocation with named bindings", async () => {
    const r = evaluateDecision(await model, "Payment", { Loan: { amount: 30000, rate: 0.0475, term: 60 } });
    expect(r.result as number).toBeCloseTo(562.707359373292, 8);
  });

  test("call a BKM from FEEL by its name", async () => {
    expect(evaluateDecision(await model, "d_direct", {}).result as number).toBeCloseTo(88.8487886783417, 8);
  });

  test("evaluate a decision service with its input decision supplied", async () => {
    expect(evaluateDecision(await model, "s_total", { Payment: 5, Fee: 100 }).result).toBe(105);
    expect(evaluateDecision(await model, "d_viaService", {}).result).toBe(105);
  });

  test("a decision service argument that does not conform to its input decision's type is null", async () => {
    const m = await parseDmn(
      definitions(`<decision id="d_in" name="In"><variable name="In" typeRef="string"/><literalExpression><text>"never"</text></literalExpression></decision>
      ${literal("d_out", "In = null", needsDecision("d_in"))}
      <decisionService id="s" name="svc"><outputDecision href="#d_out"/><inputDecision href="#d_in"/></decisionService>
      ${literal("d_bad", "svc(123)", needsKnowledge("s"))}${literal("d_good", 'svc("x")', needsKnowledge("s"))}`),
    );
    expect(evaluateDecision(m, "d_bad", {}).result).toBe(true);
    expect(evaluateDecision(m, "d_good", {}).result).toBe(false);
  });

  test("refuse an unknown decision key with a typed error", async () => {
    const m = await model;
    expect(() => evaluateDecision(m, "nope", {})).toThrow(DmnDecisionNotFoundError);
    // an inputData is not a decision
    expect(() => evaluateDecision(m, "i_fee", {})).toThrow(DmnDecisionNotFoundError);
  });

  test("refuse variables that are not an object", async () => {
    const m = await model;
    expect(() => evaluateDecision(m, "d_total", [] as never)).toThrow(DmnEvaluationError);
  });

  test("report a hit policy violation in a required decision as that decision's error", async () => {
    const m = await parseDmn(
      definitions(`${input("i_x", "x", "number")}
      ${tableDecision({ id: "inner", inputs: [{ expr: "x" }], outputs: [{ name: "o" }], rules: rows(["> 0", "1"], ["> 1", "2"]), extra: needsInput("i_x") })}
      ${literal("outer", "inner + 1", needsDecision("inner"))}`),
    );
    const e = (() => {
      try {
        evaluateDecision(m, "outer", { x: 5 });
      } catch (err) {
        return err;
      }
    })() as DmnEvaluationError;
    expect(e).toBeInstanceOf(DmnEvaluationError);
    expect(e.decision).toBe("inner");
  });

  test("let a typed error inside a BKM escape FEEL", async () => {
    const m = await parseDmn(
      definitions(`<businessKnowledgeModel id="b" name="pick"><variable name="pick"/><encapsulatedLogic><formalParameter name="v"/>
      <decisionTable id="bt"><input id="bi"><inputExpression><text>v</text></inputExpression></input><output id="bo" name="o"/>
      <rule id="br1"><inputEntry><text>&gt; 0</text></inputEntry><outputEntry><text>1</text></outputEntry></rule>
      <rule id="br2"><inputEntry><text>&gt; 1</text></inputEntry><outputEntry><text>2</text></outputEntry></rule></decisionTable>
      </encapsulatedLogic></businessKnowledgeModel>${literal("d", "pick(5) + 1", needsKnowledge("b"))}`),
    );
    expect(() => evaluateDecision(m, "d", {})).toThrow(/UNIQUE hit policy violated/);
  });

  test("stop a runaway recursive BKM with a typed error", async () => {
    const m = await parseDmn(
      definitions(`<businessKnowledgeModel id="b" name="loop"><variable name="loop"/><encapsulatedLogic><formalParameter name="n"/>
      <literalExpression><text>loop(n + 1)</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>${literal("d", "loop(0)", needsKnowledge("b"))}`),
    );
    expect(() => evaluateDecision(m, "d", {})).toThrow(DmnEvaluationError);
  });

  test("let a BKM recurse honestly", async () => {
    const m = await parseDmn(
      definitions(`<businessKnowledgeModel id="b" name="fact"><variable name="fact"/><encapsulatedLogic><formalParameter name="n"/>
      <literalExpression><text>if n &lt;= 1 then 1 else n * fact(n - 1)</text></literalExpression></encapsulatedLogic></businessKnowledgeModel>${literal("d", "fact(10)", needsKnowledge("b"))}`),
    );
    expect(evaluateDecision(m, "d", {}).result).toBe(3628800);
  });
});
