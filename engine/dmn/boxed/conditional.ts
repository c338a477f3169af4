import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression } from "../types";
import { compileChild } from "./child";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

/** A boxed conditional (DMN 1.5 §8.4): `then` when `if` is true; `else` when it is false, null or not a boolean. */
export function compileConditional(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const test = compileChild(el, "if", scope, cc, compile);
  const then = compileChild(el, "then", scope, cc, compile);
  const otherwise = compileChild(el, "else", scope, cc, compile);
  return {
    kind: "conditional",
    typeRef: el.typeRef,
    evaluate: (vars, state) =>
      test.evaluate(vars, state) === true ? then.evaluate(vars, state) : otherwise.evaluate(vars, state),
  };
}
