import { FeelFunction } from "feelin";
import { DmnEvaluationError, DmnParseError } from "../errors";
import { conformOrNull } from "../coerce";
import { guardCallable } from "../feel-edge";
import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression, EvalState, Vars } from "../types";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

// Deep enough for honest recursion, shallow enough to stop a runaway one long before the JS stack does.
const MAX_DEPTH = 500;

export interface Parameter {
  name: string;
  typeRef?: string;
}

/** A function definition: evaluates to a FEEL function closing over the variables in scope. */
export function compileFunctionDefinition(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const where = el.id ?? cc.owner;
  if (el.kind && el.kind !== "FEEL")
    throw new DmnParseError(`function kind ${el.kind} is not supported (FEEL only)`, where);
  const params: Parameter[] = (el.formalParameter ?? []).map((p: ModdleElement) => ({
    name: p.name,
    typeRef: p.typeRef,
  }));
  if (!el.body) throw new DmnParseError("function definition has no body", where);
  const body = compile(el.body, [...scope, ...params.map((p) => p.name)], cc);
  return {
    kind: "functionDefinition",
    typeRef: el.typeRef,
    evaluate: (vars, state) => makeFunction(params, body, vars, state, cc),
  };
}

/** Wrap a compiled body as a FEEL function value; arguments are converted to the parameters' declared types. */
export function makeFunction(
  params: Parameter[],
  body: CompiledExpression,
  closure: Vars,
  state: EvalState,
  cc: CompileContext,
): FeelFunction {
  const impl = (...args: unknown[]) => {
    if (state.depth >= MAX_DEPTH)
      throw new DmnEvaluationError(`function calls nested deeper than ${MAX_DEPTH}`, { decision: cc.owner });
    const vars: Vars = { ...closure };
    // an argument that does not conform to its parameter's type is null there (DMN 1.5 §10.3.2.9.4)
    params.forEach((p, i) => (vars[p.name] = conformOrNull(args[i] ?? null, p.typeRef, cc.types)));
    state.depth++;
    try {
      return body.evaluate(vars, state);
    } finally {
      state.depth--;
    }
  };
  return new FeelFunction(
    guardCallable(impl),
    params.map((p) => p.name),
  );
}
