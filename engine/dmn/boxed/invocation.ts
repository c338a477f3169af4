import { FeelFunction } from "feelin";
import { DmnEvaluationError, DmnParseError } from "../errors";
import { callFeelFunction } from "../feel-edge";
import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression } from "../types";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

/** An invocation: call a function in scope (typically a BKM) with named bindings. */
export function compileInvocation(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const where = el.id ?? cc.owner;
  if (!el.calledFunction) throw new DmnParseError("invocation names no function", where);
  const callee = compile(el.calledFunction, scope, cc);
  const calleeText: string = el.calledFunction.text ?? "function";
  const bindings = (el.binding ?? []).map((b: ModdleElement) => {
    if (!b.parameter?.name) throw new DmnParseError("invocation binding has no parameter name", where);
    return {
      name: b.parameter.name as string,
      value: b.bindingFormula ? compile(b.bindingFormula, scope, cc) : undefined,
    };
  });
  return {
    kind: "invocation",
    typeRef: el.typeRef,
    evaluate: (vars, state) => {
      const fn = callee.evaluate(vars, state);
      if (!(fn instanceof FeelFunction)) {
        throw new DmnEvaluationError(`'${calleeText}' is not a function`, {
          decision: cc.owner,
          expression: calleeText,
        });
      }
      const args = fn.parameterNames.map(() => null as unknown);
      for (const b of bindings) {
        const i = fn.parameterNames.indexOf(b.name);
        if (i < 0)
          throw new DmnEvaluationError(`'${calleeText}' has no parameter '${b.name}'`, {
            decision: cc.owner,
            expression: calleeText,
          });
        args[i] = b.value ? b.value.evaluate(vars, state) : null;
      }
      return callFeelFunction(fn, args);
    },
  };
}
