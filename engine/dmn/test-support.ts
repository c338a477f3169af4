// Builders of small DMN documents for the unit tests of this folder (not used at runtime).

export const DMN13_NS = "https://www.omg.org/spec/DMN/20191111/MODEL/";

/** Escape text for an XML element body or attribute. */
export function esc(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

/** Wrap DRG elements in a <definitions> of the given DMN namespace. */
export function definitions(body: string, ns = DMN13_NS): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="${ns}" id="defs" name="Test" namespace="http://example.com/dmn">
${body}
</definitions>`;
}

export interface TableSpec {
  id?: string;
  name?: string;
  hitPolicy?: string;
  aggregation?: string;
  inputs: { expr: string; typeRef?: string; values?: string }[];
  outputs: { name?: string; typeRef?: string; values?: string; default?: string }[];
  /** Each rule: input entries then output entries, in column order; optional id. */
  rules: { id?: string; cells: string[] }[];
  extra?: string;
}

/** A <decision> whose logic is a decision table. */
export function tableDecision(t: TableSpec): string {
  const id = t.id ?? "decision";
  const attrs = [`id="${id}_table"`];
  if (t.hitPolicy) attrs.push(`hitPolicy="${t.hitPolicy}"`);
  if (t.aggregation) attrs.push(`aggregation="${t.aggregation}"`);
  const inputs = t.inputs.map(
    (i, k) =>
      `<input id="${id}_in${k}" label="${esc(i.expr)}"><inputExpression${i.typeRef ? ` typeRef="${i.typeRef}"` : ""}><text>${esc(i.expr)}</text></inputExpression>${i.values ? `<inputValues><text>${esc(i.values)}</text></inputValues>` : ""}</input>`,
  );
  const outputs = t.outputs.map(
    (o, k) =>
      `<output id="${id}_out${k}"${o.name ? ` name="${o.name}"` : ""}${o.typeRef ? ` typeRef="${o.typeRef}"` : ""}>${o.values ? `<outputValues><text>${esc(o.values)}</text></outputValues>` : ""}${o.default ? `<defaultOutputEntry><text>${esc(o.default)}</text></defaultOutputEntry>` : ""}</output>`,
  );
  const rules = t.rules.map((r, k) => {
    const ins = r.cells.slice(0, t.inputs.length).map((c) => `<inputEntry><text>${esc(c)}</text></inputEntry>`);
    const outs = r.cells.slice(t.inputs.length).map((c) => `<outputEntry><text>${esc(c)}</text></outputEntry>`);
    return `<rule id="${r.id ?? `r${k + 1}`}">${ins.join("")}${outs.join("")}</rule>`;
  });
  return `<decision id="${id}" name="${t.name ?? id}">${t.extra ?? ""}<decisionTable ${attrs.join(" ")}>${inputs.join("")}${outputs.join("")}${rules.join("")}</decisionTable></decision>`;
}

/** Rules from rows of cells, ids r1, r2, ... */
export function rows(...cells: string[][]): { cells: string[] }[] {
  return cells.map((c) => ({ cells: c }));
}
