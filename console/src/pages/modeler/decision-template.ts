import type { FieldError } from "../../api";
import { t } from "../../i18n";

/** A decision key is the decision's XML id: a letter or `_`, then letters, digits, `_`, `.` or `-`. */
export const DECISION_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
/** The same rule as an input's `pattern` (compiled with the `v` flag, where a literal `-` in a class is escaped). */
export const DECISION_KEY_PATTERN = "[A-Za-z_][A-Za-z0-9_.\\-]*";

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * A new decision to start editing from: a DMN 1.3 table (hit policy UNIQUE) with one number input `amount`, one string
 * output `result` and two rules that cover every amount, plus its shape on the DRD, so it deploys and evaluates as it
 * stands and every part of it is there to change.
 */
export function newDecisionXml(key: string, name: string): string {
  if (!DECISION_KEY.test(key))
    throw new Error(t("The key must start with a letter or _ and hold letters, digits, _ . -"));
  const k = escape(key);
  const n = escape(name.trim() || key);
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="https://www.omg.org/spec/DMN/20191111/MODEL/" xmlns:dmndi="https://www.omg.org/spec/DMN/20191111/DMNDI/"
  xmlns:dc="http://www.omg.org/spec/DMN/20180521/DC/" id="Definitions_${k}" name="${n}"
  namespace="http://camunda.org/schema/1.0/dmn">
  <decision id="${k}" name="${n}">
    <decisionTable id="DecisionTable_${k}" hitPolicy="UNIQUE">
      <input id="Input_1" label="Amount">
        <inputExpression id="InputExpression_1" typeRef="number"><text>amount</text></inputExpression>
      </input>
      <output id="Output_1" label="Result" name="result" typeRef="string" />
      <rule id="Rule_1">
        <inputEntry id="UnaryTests_1"><text>&lt; 1000</text></inputEntry>
        <outputEntry id="LiteralExpression_1"><text>"approved"</text></outputEntry>
      </rule>
      <rule id="Rule_2">
        <inputEntry id="UnaryTests_2"><text>&gt;= 1000</text></inputEntry>
        <outputEntry id="LiteralExpression_2"><text>"review"</text></outputEntry>
      </rule>
    </decisionTable>
  </decision>
  <dmndi:DMNDI>
    <dmndi:DMNDiagram id="DMNDiagram_${k}">
      <dmndi:DMNShape id="DMNShape_${k}" dmnElementRef="${k}">
        <dc:Bounds height="80" width="180" x="160" y="100" />
      </dmndi:DMNShape>
    </dmndi:DMNDiagram>
  </dmndi:DMNDI>
</definitions>
`;
}

/**
 * What the page says when a deploy is refused: the server's sentence, then each `fieldErrors` entry (the model's path
 * and the problem) when it adds something the sentence does not already say.
 */
export function refusalLines(e: { message: string; fieldErrors?: FieldError[] }): string[] {
  const extra = (e.fieldErrors ?? [])
    .map((f) => (f.field ? `${f.field}: ${f.message}` : f.message))
    .filter((l) => !e.message.includes(l));
  return [e.message, ...extra];
}
