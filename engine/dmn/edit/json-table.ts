import { DmnDecisionNotFoundError, DmnValidationError } from "../errors";
import { createElement, readDefinitions, writeDefinitions, type ModdleElement } from "../model/moddle";
import { parseDmn } from "../model/parse";
import type { DmnModel, JsonTable } from "../types";
import { validateJsonTable } from "./validate-table";

/** The decision table of a decision as JSON (see docs/dmn.md), for display and editing. */
export function toJsonTable(model: DmnModel, decisionKey: string): JsonTable {
  const el = model.elements[decisionKey] ?? model.elements[model.idsByName[decisionKey] ?? ""];
  if (el?.kind !== "decision") throw new DmnDecisionNotFoundError(decisionKey);
  if (el.logic?.kind !== "decisionTable" || !el.logic.table)
    throw new DmnValidationError("the decision's logic is not a decision table", "decision");
  return structuredClone(el.logic.table);
}

/** Replace a decision table's columns and rules with a JSON edit and return the new XML (DMN 1.3), checked by a full parse. */
export async function applyJsonTable(xml: string, decisionKey: string, table: JsonTable): Promise<string> {
  const t = validateJsonTable(table);
  const { rootElement: defs } = await readDefinitions(xml);
  const drg: ModdleElement[] = defs.drgElement ?? [];
  const decision =
    drg.find((e) => e.$type === "dmn:Decision" && e.id === decisionKey) ??
    drg.find((e) => e.$type === "dmn:Decision" && e.name === decisionKey);
  if (!decision) throw new DmnDecisionNotFoundError(decisionKey);
  const dt: ModdleElement | undefined = decision.decisionLogic;
  if (dt?.$type !== "dmn:DecisionTable")
    throw new DmnValidationError("the decision's logic is not a decision table", "decision");

  dt.hitPolicy = t.hitPolicy;
  dt.aggregation = t.hitPolicy === "COLLECT" && t.aggregation ? t.aggregation : undefined;
  dt.input = t.inputs.map((i) => {
    const el = reuse(dt.input, i.id, "dmn:InputClause", "Input");
    el.label = i.label || undefined;
    el.inputExpression ??= createElement("dmn:LiteralExpression", { id: newId("InputExpression") });
    el.inputExpression.text = i.expression;
    el.inputExpression.typeRef = i.typeRef || undefined;
    el.inputValues = i.inputValues ? createElement("dmn:UnaryTests", { text: i.inputValues }) : undefined;
    return el;
  });
  dt.output = t.outputs.map((o) => {
    const el = reuse(dt.output, o.id, "dmn:OutputClause", "Output");
    el.name = o.name || undefined;
    el.label = o.label || undefined;
    el.typeRef = o.typeRef || undefined;
    el.outputValues = o.outputValues ? createElement("dmn:UnaryTests", { text: o.outputValues }) : undefined;
    el.defaultOutputEntry = o.defaultOutputEntry
      ? createElement("dmn:LiteralExpression", { text: o.defaultOutputEntry })
      : undefined;
    return el;
  });
  dt.rule = t.rules.map((r) => {
    const el = reuse(dt.rule, r.id, "dmn:DecisionRule", "DecisionRule");
    el.description = r.description || undefined;
    el.inputEntry = r.inputEntries.map((text, k) => entry(el.inputEntry?.[k], "dmn:UnaryTests", "UnaryTests", text));
    el.outputEntry = r.outputEntries.map((text, k) =>
      entry(el.outputEntry?.[k], "dmn:LiteralExpression", "LiteralExpression", text),
    );
    return el;
  });
  const out = await writeDefinitions(defs);
  await parseDmn(out); // the edit must leave a model we can run: FEEL syntax and table shape are checked here
  return out;
}

// Keep the existing element when the id matches so vendor attributes (camunda:*, DI) survive the edit.
function reuse(
  existing: ModdleElement[] | undefined,
  id: string | undefined,
  type: string,
  prefix: string,
): ModdleElement {
  const found = id ? existing?.find((e) => e.id === id) : undefined;
  return found ?? createElement(type, { id: id || newId(prefix) });
}

function entry(existing: ModdleElement | undefined, type: string, prefix: string, text: string): ModdleElement {
  const el = existing ?? createElement(type, { id: newId(prefix) });
  el.text = text;
  return el;
}

function newId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
}
