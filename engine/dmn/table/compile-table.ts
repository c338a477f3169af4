import { conformOrNull, isKnownType } from "../coerce";
import type { CompileContext } from "../boxed/compile-context";
import { DmnParseError } from "../errors";
import { compileExpression as compileFeel } from "../../feel";
import { compileExpression, compileUnaryTests } from "../feel-edge";
import type { ModdleElement } from "../model/moddle";
import type { Aggregation, CompiledExpression, HitPolicy, JsonTable } from "../types";
import { createTableEvaluator } from "./evaluate-table";
import type { CompiledInput, CompiledOutput, CompiledRule, CompiledTable } from "./types";

const HIT_POLICIES: HitPolicy[] = ["UNIQUE", "FIRST", "PRIORITY", "ANY", "COLLECT", "RULE ORDER", "OUTPUT ORDER"];
const AGGREGATIONS: Aggregation[] = ["SUM", "MIN", "MAX", "COUNT"];

/** Compile a <decisionTable> once: every input expression, input entry and output entry becomes a closure. */
export function compileDecisionTable(
  dt: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
): CompiledExpression {
  const id: string = dt.id ?? cc.owner;
  const hitPolicy = (dt.hitPolicy ?? "UNIQUE").toUpperCase().replace("_", " ") as HitPolicy;
  if (!HIT_POLICIES.includes(hitPolicy)) throw new DmnParseError(`unknown hit policy '${dt.hitPolicy}'`, id);
  const aggregation = dt.aggregation ? (String(dt.aggregation).toUpperCase() as Aggregation) : undefined;
  if (aggregation && !AGGREGATIONS.includes(aggregation))
    throw new DmnParseError(`unknown aggregation '${dt.aggregation}'`, id);
  if (aggregation && hitPolicy !== "COLLECT")
    throw new DmnParseError(`aggregation ${aggregation} needs the COLLECT hit policy`, id);

  const inputs = (dt.input ?? []).map((i: ModdleElement, k: number) => compileInput(i, k, id, scope));
  const outputs = (dt.output ?? []).map((o: ModdleElement, k: number) => compileOutput(o, k, id, scope));
  if (outputs.length === 0) throw new DmnParseError("a decision table needs at least one output", id);
  if (outputs.length > 1) {
    const unnamed = (dt.output as ModdleElement[]).find((o) => !o.name);
    if (unnamed) throw new DmnParseError("every output of a multi-output table needs a name", unnamed.id ?? id);
    if (aggregation) throw new DmnParseError("aggregation is only defined for single-output tables", id);
  } else if (!outputs[0].name) {
    outputs[0].name = dt.outputLabel ?? cc.owner;
  }
  for (const o of outputs) {
    const typeRef = o.typeRef;
    if (isKnownType(typeRef, cc.types)) o.conform = (v: unknown) => conformOrNull(v, typeRef, cc.types);
  }
  const rules = (dt.rule ?? []).map((r: ModdleElement, k: number) =>
    compileRule(r, k, id, inputs.length, outputs.length, scope),
  );

  const table: CompiledTable = {
    id,
    owner: cc.owner,
    hitPolicy,
    aggregation,
    inputs,
    outputs,
    rules,
    source: toSource(dt, hitPolicy, aggregation),
  };
  return { kind: "decisionTable", typeRef: dt.typeRef, evaluate: createTableEvaluator(table), table: table.source };
}

function compileInput(i: ModdleElement, k: number, tableId: string, scope: readonly string[]): CompiledInput {
  const id = i.id ?? `${tableId}-input-${k + 1}`;
  const text: string = i.inputExpression?.text ?? "";
  const allowedText: string | undefined = i.inputValues?.text?.trim() || undefined;
  return {
    id,
    label: i.label ?? text,
    text,
    typeRef: i.inputExpression?.typeRef,
    expr: compileExpression(text, scope, id),
    allowed: allowedText ? { text: allowedText, test: compileUnaryTests(allowedText, scope, id) } : undefined,
  };
}

function compileOutput(o: ModdleElement, k: number, tableId: string, scope: readonly string[]): CompiledOutput {
  const id = o.id ?? `${tableId}-output-${k + 1}`;
  const allowedText: string | undefined = o.outputValues?.text?.trim() || undefined;
  const defaultText: string | undefined = o.defaultOutputEntry?.text?.trim() || undefined;
  return {
    id,
    name: o.name ?? "",
    typeRef: o.typeRef,
    priorities: allowedText ? priorityList(allowedText) : undefined,
    allowed: allowedText ? { text: allowedText, test: compileUnaryTests(allowedText, scope, id) } : undefined,
    defaultEntry: defaultText ? compileExpression(defaultText, scope, id) : undefined,
  };
}

// Output values double as the priority order; only literal lists give one.
function priorityList(text: string): unknown[] | undefined {
  const c = compileFeel(`[${text}]`);
  const v = c.ok ? c.value({}) : undefined;
  return v?.ok && Array.isArray(v.value) ? v.value : undefined;
}

function compileRule(
  r: ModdleElement,
  k: number,
  tableId: string,
  nIn: number,
  nOut: number,
  scope: readonly string[],
): CompiledRule {
  const id: string = r.id ?? `${tableId}-rule-${k + 1}`;
  const ins: ModdleElement[] = r.inputEntry ?? [];
  const outs: ModdleElement[] = r.outputEntry ?? [];
  if (ins.length !== nIn) throw new DmnParseError(`rule has ${ins.length} input entries for ${nIn} inputs`, id);
  if (outs.length !== nOut) throw new DmnParseError(`rule has ${outs.length} output entries for ${nOut} outputs`, id);
  return {
    id,
    tests: ins.map((e, j) => compileUnaryTests(e.text, scope, e.id ?? `${id} input ${j + 1}`)),
    outputs: outs.map((e, j) => compileExpression(e.text, scope, e.id ?? `${id} output ${j + 1}`)),
    outputTexts: outs.map((e) => e.text ?? ""),
  };
}

function toSource(dt: ModdleElement, hitPolicy: HitPolicy, aggregation?: Aggregation): JsonTable {
  const opt = <T>(v: T | undefined | null) => (v === undefined || v === null || v === "" ? undefined : v);
  return {
    hitPolicy,
    ...(aggregation ? { aggregation } : {}),
    inputs: (dt.input ?? []).map((i: ModdleElement) =>
      strip({
        id: i.id,
        label: opt(i.label),
        expression: i.inputExpression?.text ?? "",
        typeRef: opt(i.inputExpression?.typeRef),
        inputValues: opt(i.inputValues?.text),
      }),
    ),
    outputs: (dt.output ?? []).map((o: ModdleElement) =>
      strip({
        id: o.id,
        name: opt(o.name),
        label: opt(o.label),
        typeRef: opt(o.typeRef),
        outputValues: opt(o.outputValues?.text),
        defaultOutputEntry: opt(o.defaultOutputEntry?.text),
      }),
    ),
    rules: (dt.rule ?? []).map((r: ModdleElement) =>
      strip({
        id: r.id,
        inputEntries: (r.inputEntry ?? []).map((e: ModdleElement) => e.text ?? ""),
        outputEntries: (r.outputEntry ?? []).map((e: ModdleElement) => e.text ?? ""),
        description: opt(r.description),
      }),
    ),
  } as JsonTable;
}

function strip<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
