import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression } from "../types";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

/** A boxed list: each element is its own boxed expression. */
export function compileList(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const items = (el.elements ?? []).map((e: ModdleElement) => compile(e, scope, cc));
  return {
    kind: "list",
    typeRef: el.typeRef,
    evaluate: (vars, state) => items.map((i: CompiledExpression) => i.evaluate(vars, state)),
  };
}
