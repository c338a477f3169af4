import { describe, expect, test } from "bun:test";
import { DmnEvaluationError } from "../errors";
import { evaluateDecision } from "../drg/evaluate";
import { parseDmn } from "../model/parse";
import { definitions, rows, tableDecision, type TableSpec } from "../test-support";

async function run(spec: Omit<TableSpec, "inputs"> & { inputs?: TableSpec["inputs"] }, vars: Record<string, unknown>) {
  const model = await parseDmn(definitions(tableDecision({ inputs: [{ expr: "x", typeRef: "number" }], ...spec })));
  return evaluateDecision(model, spec.id ?? "decision", vars);
}

const overlapping = rows(["> 0", '"small"'], ["> 10", '"big"'], ["> 100", '"huge"'], ["< 0", '"negative"']);
const grades = { outputs: [{ name: "grade", values: '"huge", "big", "small", "negative"' }], rules: overlapping };

describe("hit policies", () => {
  test("UNIQUE gives the single matching rule's output and its id", async () => {
    expect(await run({ outputs: [{ name: "o" }], rules: rows(["< 0", '"neg"'], [">= 0", '"pos"']) }, { x: 5 })).toEqual(
      { result: "pos", matchedRules: ["r2"] },
    );
  });

  test("UNIQUE refuses two matching rules instead of picking the first", async () => {
    const e = await run({ ...grades }, { x: 50 }).catch((err) => err);
    expect(e).toBeInstanceOf(DmnEvaluationError);
    expect(e.message).toMatch(/UNIQUE hit policy violated: rules 'r1', 'r2'/);
    expect(e.decision).toBe("decision");
    expect(e.rule).toBe("r2");
  });

  test("gives null when no rule matches", async () => {
    expect(await run({ ...grades, hitPolicy: "FIRST" }, { x: 0 })).toEqual({ result: null, matchedRules: [] });
  });

  test("FIRST gives the first match in rule order", async () => {
    expect(await run({ ...grades, hitPolicy: "FIRST" }, { x: 500 })).toEqual({ result: "small", matchedRules: ["r1"] });
  });

  test("PRIORITY gives the match whose output comes first in the output values", async () => {
    expect(await run({ ...grades, hitPolicy: "PRIORITY" }, { x: 50 })).toEqual({ result: "big", matchedRules: ["r2"] });
    expect(await run({ ...grades, hitPolicy: "PRIORITY" }, { x: 500 })).toEqual({
      result: "huge",
      matchedRules: ["r3"],
    });
  });

  test("OUTPUT ORDER lists the matches by output value priority", async () => {
    expect(await run({ ...grades, hitPolicy: "OUTPUT ORDER" }, { x: 500 })).toEqual({
      result: ["huge", "big", "small"],
      matchedRules: ["r3", "r2", "r1"],
    });
  });

  test("RULE ORDER lists the matches in rule order", async () => {
    expect(await run({ ...grades, hitPolicy: "RULE ORDER" }, { x: 500 })).toEqual({
      result: ["small", "big", "huge"],
      matchedRules: ["r1", "r2", "r3"],
    });
  });

  test("COLLECT without aggregation lists every match", async () => {
    expect((await run({ ...grades, hitPolicy: "COLLECT" }, { x: 50 })).result).toEqual(["small", "big"]);
  });

  test("ANY accepts overlapping rules that agree", async () => {
    const rules = rows(["> 0", '"yes"'], ["> 10", '"yes"']);
    expect(await run({ hitPolicy: "ANY", outputs: [{ name: "o" }], rules }, { x: 50 })).toEqual({
      result: "yes",
      matchedRules: ["r1"],
    });
  });

  test("ANY refuses overlapping rules that disagree", async () => {
    const rules = rows(["> 0", '"yes"'], ["> 10", '"no"']);
    await expect(run({ hitPolicy: "ANY", outputs: [{ name: "o" }], rules }, { x: 50 })).rejects.toThrow(
      /ANY hit policy violated/,
    );
  });

  test("several outputs give an object per match", async () => {
    const outputs = [{ name: "grade" }, { name: "score", typeRef: "number" }];
    const rules = rows(["> 0", '"small"', "1"], ["> 10", '"big"', "2"]);
    expect((await run({ hitPolicy: "FIRST", outputs, rules }, { x: 50 })).result).toEqual({ grade: "small", score: 1 });
    expect((await run({ hitPolicy: "RULE ORDER", outputs, rules }, { x: 50 })).result).toEqual([
      { grade: "small", score: 1 },
      { grade: "big", score: 2 },
    ]);
  });
});

describe("COLLECT aggregations", () => {
  const amounts = rows(["> 0", "10"], ["> 10", "20"], ["> 100", "30"], ["> 1000", "null"]);
  const collect = (aggregation: string, x: number) =>
    run({ hitPolicy: "COLLECT", aggregation, outputs: [{ name: "o" }], rules: amounts }, { x });

  test("SUM adds the outputs of the matched rules", async () => {
    expect(await collect("SUM", 500)).toEqual({ result: 60, matchedRules: ["r1", "r2", "r3"] });
  });
  test("MIN and MAX pick the extremes", async () => {
    expect((await collect("MIN", 500)).result).toBe(10);
    expect((await collect("MAX", 50)).result).toBe(20);
  });
  test("COUNT counts the non-null outputs", async () => {
    expect((await collect("COUNT", 5000)).result).toBe(3);
  });
  test("an aggregation over no match is null", async () => {
    expect(await collect("SUM", -1)).toEqual({ result: null, matchedRules: [] });
  });
  test("SUM refuses outputs that are not numbers", async () => {
    const rules = rows(["> 0", '"ten"']);
    await expect(
      run({ hitPolicy: "COLLECT", aggregation: "SUM", outputs: [{ name: "o" }], rules }, { x: 1 }),
    ).rejects.toThrow(/cannot SUM/);
  });
});

describe("input and output values", () => {
  test("refuse an input outside its input values, naming the input", async () => {
    const spec = {
      inputs: [{ expr: "color", values: '"red","green"' }],
      outputs: [{ name: "o" }],
      rules: rows(['"red"', "1"], ['"green"', "2"]),
    };
    expect((await run(spec, { color: "green" })).result).toBe(2);
    await expect(run(spec, { color: "blue" })).rejects.toThrow(
      /input 'color' value "blue" is not among its allowed values/,
    );
  });

  test("refuse an output outside its output values, naming the rule", async () => {
    const spec = { outputs: [{ name: "o", values: '"a","b"' }], rules: rows(["> 0", '"c"']) };
    const e = await run(spec, { x: 1 }).catch((err) => err);
    expect(e).toBeInstanceOf(DmnEvaluationError);
    expect(e.rule).toBe("r1");
  });

  test("use the default output entry when nothing matches", async () => {
    const spec = { outputs: [{ name: "o", default: '"fallback"' }], rules: rows(["> 0", '"positive"']) };
    expect(await run(spec, { x: -1 })).toEqual({ result: "fallback", matchedRules: [] });
    expect((await run(spec, { x: 1 })).result).toBe("positive");
  });
});
