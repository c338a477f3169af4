import { DmnParseError } from "../errors";
import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression } from "../types";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

/** Compile the one boxed expression inside a DMN 1.5 child element (<if>, <in>, <return>...); missing is refused. */
export function compileChild(
  el: ModdleElement,
  part: string,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const value = (el[part] as ModdleElement | undefined)?.value;
  if (!value)
    throw new DmnParseError(`<${el.$type.slice(4).toLowerCase()}> has no <${part}> expression`, el.id ?? cc.owner);
  return compile(value, scope, cc);
}

/** A value as a list: null stays null, a single value is a singleton list (DMN 1.5 §10.3.2.9.4). */
export function asList(v: unknown): unknown[] | null {
  if (v === null || v === undefined) return null;
  return Array.isArray(v) ? v : [v];
}
