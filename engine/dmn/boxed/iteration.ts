import type { ModdleElement } from "../model/moddle";
import type { CompiledExpression, Vars } from "../types";
import { asList, compileChild } from "./child";
import type { CompileContext } from "./compile-context";
import type { CompileBoxed } from "./index";

// The DMN 1.5 iterating boxed expressions (§8.5-8.7): each evaluates its <in> once, then its body per item with the
// item bound to a name (`item` for filter, the iteratorVariable otherwise). A non-list <in> is a singleton list.

type Body = (vars: Vars, state: Parameters<CompiledExpression["evaluate"]>[1]) => unknown;

function iterate(
  el: ModdleElement,
  part: string,
  name: string,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
) {
  const source = compileChild(el, "in", scope, cc, compile);
  const body = compileChild(el, part, [...scope, name], cc, compile);
  return {
    items: (vars: Vars, state: Parameters<Body>[1]) => asList(source.evaluate(vars, state)),
    each: (item: unknown, vars: Vars, state: Parameters<Body>[1]) => body.evaluate({ ...vars, [name]: item }, state),
  };
}

/** filter: the items of <in> for which <match> is true (with `item` bound; a context item's entries too). */
export function compileFilter(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const it = iterate(el, "match", "item", scope, cc, compile);
  return {
    kind: "filter",
    typeRef: el.typeRef,
    evaluate: (vars, state) => {
      const items = it.items(vars, state);
      if (items === null) return null;
      return items.filter((item) => {
        const local = item !== null && typeof item === "object" && !Array.isArray(item) ? { ...vars, ...item } : vars;
        return it.each(item, local, state) === true;
      });
    },
  };
}

/** for: the list of <return> evaluated per item of <in>. */
export function compileFor(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const it = iterate(el, "return", el.iteratorVariable ?? "item", scope, cc, compile);
  return {
    kind: "for",
    typeRef: el.typeRef,
    evaluate: (vars, state) => it.items(vars, state)?.map((item) => it.each(item, vars, state)) ?? null,
  };
}

/** some / every: whether <satisfies> is true for some / for every item of <in> (anything but true counts as not). */
export function compileQuantified(
  el: ModdleElement,
  scope: readonly string[],
  cc: CompileContext,
  compile: CompileBoxed,
): CompiledExpression {
  const every = el.$type === "dmn:Every";
  const it = iterate(el, "satisfies", el.iteratorVariable ?? "item", scope, cc, compile);
  return {
    kind: every ? "every" : "some",
    typeRef: el.typeRef,
    evaluate: (vars, state) => {
      const items = it.items(vars, state);
      if (items === null) return null;
      const holds = (item: unknown) => it.each(item, vars, state) === true;
      return every ? items.every(holds) : items.some(holds);
    },
  };
}
