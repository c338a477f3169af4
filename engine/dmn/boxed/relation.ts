import { DmnParseError } from "../errors";
import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression } from "../types";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

/** A relation: a list of contexts, one per row, keyed by the column names. */
export function compileRelation(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const columns: string[] = (el.column ?? []).map((c: ModdleElement, k: number) => {
    if (!c.name) throw new DmnParseError(`relation column ${k + 1} has no name`, c.id ?? el.id ?? cc.owner);
    return c.name;
  });
  const rows = (el.row ?? []).map((row: ModdleElement, r: number) => {
    const cells: ModdleElement[] = row.elements ?? [];
    if (cells.length !== columns.length) {
      throw new DmnParseError(
        `relation row ${r + 1} has ${cells.length} cells for ${columns.length} columns`,
        row.id ?? el.id ?? cc.owner,
      );
    }
    return cells.map((cell) => compile(cell, scope, cc));
  });
  return {
    kind: "relation",
    typeRef: el.typeRef,
    evaluate: (vars, state) =>
      rows.map((cells: CompiledExpression[]) => {
        const row: Record<string, unknown> = {};
        cells.forEach((cell, k) => (row[columns[k]] = cell.evaluate(vars, state)));
        return row;
      }),
  };
}
