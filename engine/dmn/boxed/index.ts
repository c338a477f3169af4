import { conformOrNull, isKnownType } from "../coerce";
import { DmnParseError } from "../errors";
import type { ModdleElement } from "../model/moddle";
import { compileDecisionTable } from "../table/compile-table";
import type { CompiledExpression } from "../types";
import type { CompileContext } from "./compile-context";
import { compileConditional } from "./conditional";
import { compileContext } from "./context";
import { compileFunctionDefinition } from "./function-definition";
import { compileInvocation } from "./invocation";
import { compileFilter, compileFor, compileQuantified } from "./iteration";
import { compileList } from "./list";
import { compileLiteral } from "./literal";
import { compileRelation } from "./relation";

/** Compile any boxed expression element (decision table, literal, context, list, relation, invocation, function,
 * and DMN 1.5 conditional, filter, for, some, every). */
export function compileBoxed(el: ModdleElement, scope: readonly string[], cc: CompileContext): CompiledExpression {
  return withTypeRef(compileKind(el, scope, cc), cc);
}

/** A boxed expression's own typeRef converts its value (DMN 1.5 §10.3.2.9.4): a non-conforming value is null. */
function withTypeRef(compiled: CompiledExpression, cc: CompileContext): CompiledExpression {
  const { typeRef, evaluate } = compiled;
  if (!isKnownType(typeRef, cc.types)) return compiled;
  return { ...compiled, evaluate: (vars, state) => conformOrNull(evaluate(vars, state), typeRef, cc.types) };
}

function compileKind(el: ModdleElement, scope: readonly string[], cc: CompileContext): CompiledExpression {
  switch (el.$type) {
    case "dmn:LiteralExpression":
      return compileLiteral(el, scope, cc);
    case "dmn:DecisionTable":
      return compileDecisionTable(el, scope, cc);
    case "dmn:Context":
      return compileContext(el, scope, cc, compileBoxed);
    case "dmn:List":
      return compileList(el, scope, cc, compileBoxed);
    case "dmn:Relation":
      return compileRelation(el, scope, cc, compileBoxed);
    case "dmn:Invocation":
      return compileInvocation(el, scope, cc, compileBoxed);
    case "dmn:FunctionDefinition":
      return compileFunctionDefinition(el, scope, cc, compileBoxed);
    case "dmn:Conditional":
      return compileConditional(el, scope, cc, compileBoxed);
    case "dmn:Filter":
      return compileFilter(el, scope, cc, compileBoxed);
    case "dmn:For":
      return compileFor(el, scope, cc, compileBoxed);
    case "dmn:Some":
    case "dmn:Every":
      return compileQuantified(el, scope, cc, compileBoxed);
    default:
      throw new DmnParseError(`unsupported boxed expression ${el.$type}`, el.id ?? cc.owner);
  }
}

/** The recursive compiler handed to container expressions, so that they need not import this module back. */
export type CompileBoxed = typeof compileBoxed;
