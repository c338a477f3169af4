import { DmnParseError } from "../errors";
import { compileExpression } from "../feel-edge";
import type { ModdleElement } from "../model/moddle";
import { instanceOfTargets } from "../instance-of";
import type { CompiledExpression, Vars } from "../types";
import type { CompileContext } from "./compile-context";

const FEEL = /^(?:https?:\/\/www\.omg\.org\/spec\/(?:DMN|FEEL)\/\d{8}\/FEEL\/?|feel)$/i;

/** A literal expression: one FEEL expression. */
export function compileLiteral(el: ModdleElement, scope: readonly string[], cc: CompileContext): CompiledExpression {
  const where = el.id ?? cc.owner;
  if (el.expressionLanguage && !FEEL.test(el.expressionLanguage)) {
    throw new DmnParseError(`expression language '${el.expressionLanguage}' is not supported (FEEL only)`, where);
  }
  const fn = compileExpression(el.text, scope, where);
  const types = instanceOfTargets(el.text, cc.types);
  const evaluate = types ? (vars: Vars) => fn({ ...types, ...vars }) : (vars: Vars) => fn(vars);
  return { kind: "literalExpression", typeRef: el.typeRef, evaluate };
}
