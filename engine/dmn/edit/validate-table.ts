import { DmnValidationError } from "../errors";
import type { JsonTable } from "../types";

const HIT_POLICIES = ["UNIQUE", "FIRST", "PRIORITY", "ANY", "COLLECT", "RULE ORDER", "OUTPUT ORDER"];
const AGGREGATIONS = ["SUM", "MIN", "MAX", "COUNT"];
const XML_ID = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/** Check the shape of a JSON table edit before it touches the XML; throws DmnValidationError with a JSON path. */
export function validateJsonTable(t: unknown): JsonTable {
  if (!isObject(t)) throw new DmnValidationError("must be an object", "table");
  if (!HIT_POLICIES.includes(t.hitPolicy as string))
    throw new DmnValidationError(`must be one of ${HIT_POLICIES.join(", ")}`, "hitPolicy");
  if (t.aggregation !== undefined && t.aggregation !== null) {
    if (!AGGREGATIONS.includes(t.aggregation as string))
      throw new DmnValidationError(`must be one of ${AGGREGATIONS.join(", ")}`, "aggregation");
    if (t.hitPolicy !== "COLLECT")
      throw new DmnValidationError("is only allowed with the COLLECT hit policy", "aggregation");
  }
  const inputs = arrayAt(t, "inputs");
  const outputs = arrayAt(t, "outputs");
  const rules = arrayAt(t, "rules");
  if (outputs.length === 0) throw new DmnValidationError("needs at least one output", "outputs");
  const ids = new Set<string>();
  const checkId = (v: unknown, path: string) => {
    if (v === undefined || v === null || v === "") return;
    if (typeof v !== "string" || !XML_ID.test(v))
      throw new DmnValidationError("must be an XML id (letters, digits, _ . -, not starting with a digit)", path);
    if (ids.has(v)) throw new DmnValidationError(`duplicate id '${v}'`, path);
    ids.add(v);
  };
  inputs.forEach((i, k) => {
    if (!isObject(i)) throw new DmnValidationError("must be an object", `inputs[${k}]`);
    checkId(i.id, `inputs[${k}].id`);
    stringAt(i, "expression", `inputs[${k}]`, true);
    for (const f of ["label", "typeRef", "inputValues"]) stringAt(i, f, `inputs[${k}]`, false);
  });
  outputs.forEach((o, k) => {
    if (!isObject(o)) throw new DmnValidationError("must be an object", `outputs[${k}]`);
    checkId(o.id, `outputs[${k}].id`);
    for (const f of ["name", "label", "typeRef", "outputValues", "defaultOutputEntry"])
      stringAt(o, f, `outputs[${k}]`, false);
    if (outputs.length > 1 && !o.name)
      throw new DmnValidationError("is required when the table has several outputs", `outputs[${k}].name`);
  });
  if (t.aggregation && outputs.length > 1)
    throw new DmnValidationError("is only allowed with a single output", "aggregation");
  rules.forEach((r, k) => {
    const path = `rules[${k}]`;
    if (!isObject(r)) throw new DmnValidationError("must be an object", path);
    checkId(r.id, `${path}.id`);
    entries(r, "inputEntries", inputs.length, path);
    entries(r, "outputEntries", outputs.length, path);
    stringAt(r, "description", path, false);
  });
  return t as unknown as JsonTable;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function arrayAt(o: Record<string, unknown>, key: string): unknown[] {
  if (!Array.isArray(o[key])) throw new DmnValidationError("must be an array", key);
  return o[key] as unknown[];
}

function stringAt(o: Record<string, unknown>, key: string, path: string, required: boolean): void {
  const v = o[key];
  if (v === undefined || v === null) {
    if (required) throw new DmnValidationError("is required", `${path}.${key}`);
    return;
  }
  if (typeof v !== "string") throw new DmnValidationError("must be a string", `${path}.${key}`);
}

function entries(r: Record<string, unknown>, key: string, count: number, path: string): void {
  const list = r[key];
  if (!Array.isArray(list)) throw new DmnValidationError("must be an array", `${path}.${key}`);
  if (list.length !== count)
    throw new DmnValidationError(`has ${list.length} entries for ${count} columns`, `${path}.${key}`);
  list.forEach((e, j) => {
    if (typeof e !== "string") throw new DmnValidationError("must be a string (FEEL text)", `${path}.${key}[${j}]`);
  });
}
