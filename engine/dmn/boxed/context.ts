import { conformOrNull } from "../coerce";
import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression, Vars } from "../types";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

/** A boxed context: entries see the entries above them; an entry without a name is the result, else the context itself. */
export function compileContext(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const names = [...scope];
  const entries = (el.contextEntry ?? []).map((entry: ModdleElement) => {
    const name: string | undefined = entry.variable?.name;
    const typeRef: string | undefined = entry.variable?.typeRef;
    // The entry's own name is in scope so that a function defined here can call itself.
    if (name) names.push(name);
    const value = entry.value ? compile(entry.value, names.slice(), cc) : undefined;
    return { name, typeRef, value };
  });
  return {
    kind: "context",
    typeRef: el.typeRef,
    evaluate: (vars, state) => {
      const local: Vars = { ...vars };
      const result: Record<string, unknown> = {};
      for (const { name, typeRef, value } of entries) {
        // an entry's declared type converts its value like a decision's (non-conforming is null)
        const v = value ? conformOrNull(value.evaluate(local, state), typeRef, cc.types) : null;
        if (!name) return v;
        result[name] = v;
        local[name] = v;
      }
      return result;
    },
  };
}
