// Models and inputs of bench:noisy-neighbour: what tenant B runs steadily, and what a hostile tenant A sends
// (issue 28). Each hostile piece is the case the issue measured, sized so that one run of the bench stays short.

const BPMN = (id: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" targetNamespace="t">
  <process id="${id}" isExecutable="true">${body}</process>
</definitions>`;

/** B's steady process: a start, one user task, an end. */
export const steadyBpmn = BPMN(
  "steady",
  `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="t"/>
   <userTask id="t" name="Do it"/><sequenceFlow id="f2" sourceRef="t" targetRef="e"/><endEvent id="e"/>`,
);

/** A process whose start runs one JavaScript script task (`code`). */
export const scriptBpmn = (id: string, code: string) =>
  BPMN(
    id,
    `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="sc"/>
     <scriptTask id="sc" scriptFormat="javascript"><script><![CDATA[${code}]]></script></scriptTask>
     <sequenceFlow id="f2" sourceRef="sc" targetRef="e"/><endEvent id="e"/>`,
  );

/** Native calls the QuickJS step limit does not count (0.7–1.3 s per start on the unbounded engine). */
export const SCRIPT_NATIVE_LOOP = 'for (let i = 0; i < 60; i++) "x".repeat(1e6); 1';
/** Grows the script's memory until its cap (27–73 s per start on the unbounded engine; BENCH_MEMORY_HOG=1). */
export const SCRIPT_MEMORY_HOG = 'let a = []; while (true) { a.push("x".repeat(1e6)); }';

/** A process whose exclusive gateway has a JUEL condition of `terms` terms (a stack overflow at run time when unbounded). */
export function deepJuelBpmn(terms: number): string {
  const cond = Array.from({ length: terms }, () => "a == 1").join(" || ");
  return BPMN(
    "deepjuel",
    `<startEvent id="s"/><sequenceFlow id="f1" sourceRef="s" targetRef="g"/>
     <exclusiveGateway id="g" default="f3"/>
     <sequenceFlow id="f2" sourceRef="g" targetRef="e1"><conditionExpression>\${${cond}}</conditionExpression></sequenceFlow>
     <sequenceFlow id="f3" sourceRef="g" targetRef="e2"/><endEvent id="e1"/><endEvent id="e2"/>`,
  );
}

/** A BPMN of `tasks` chained tasks (60,000: about 4 MB). */
export function bigBpmn(tasks: number): string {
  const parts = ['<startEvent id="s"/><sequenceFlow id="f0" sourceRef="s" targetRef="t0"/>'];
  for (let i = 0; i < tasks; i++) {
    const next = i + 1 < tasks ? `t${i + 1}` : "e";
    parts.push(
      `<task id="t${i}" name="Task ${i}"/><sequenceFlow id="f${i + 1}" sourceRef="t${i}" targetRef="${next}"/>`,
    );
  }
  parts.push('<endEvent id="e"/>');
  return BPMN("big", parts.join(""));
}

const DMN_NS = "https://www.omg.org/spec/DMN/20191111/MODEL/";
const literal = (id: string, text: string) =>
  `<decision id="${id}" name="${id}"><variable name="${id}"/><literalExpression><text>${text}</text></literalExpression></decision>`;

/** The steady tenants' decision: a discount rate by amount, first rule that matches. */
export const DISCOUNT_TABLE = `<decision id="discount" name="discount"><decisionTable id="dt" hitPolicy="FIRST">
    <input id="i1"><inputExpression typeRef="number"><text>amount</text></inputExpression></input>
    <output id="o1" name="rate" typeRef="number"/>
    <rule id="r1"><inputEntry><text>&gt; 1000</text></inputEntry><outputEntry><text>0.1</text></outputEntry></rule>
    <rule id="r2"><inputEntry><text>&gt; 100</text></inputEntry><outputEntry><text>0.05</text></outputEntry></rule>
    <rule id="r3"><inputEntry><text>-</text></inputEntry><outputEntry><text>0</text></outputEntry></rule>
  </decisionTable></decision>`;

/** B's decision (a small table) and A's hostile literal expressions: a backtracking regex and an unbounded builtin. */
export const decisionsDmn = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="${DMN_NS}" id="noisy" name="noisy" namespace="bench">
  ${DISCOUNT_TABLE}
  ${literal("backtrack", 'matches(x, "^(a+)+$")')}
  ${literal("builtin", 'string length(string join(for i in 1..1000 return x, ""))')}
</definitions>`;
