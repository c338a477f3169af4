import { compileExpression, isContextValue } from "../feel";
import type { TypeDef } from "./types";

// `x instance of T` where T is one of the model's item definitions (DMN 1.5 §10.3.2.9.3). feelin answers an unknown
// type name with JavaScript's `instanceof` on the value that name has in scope, so each item definition a text names
// after `instance of` (or inside a list<...>) is bound to an object whose Symbol.hasInstance is the FEEL test: the
// base type, every item of a collection, every declared component of a structure (further entries allowed, a null
// component conforms). Allowed values restrict values, not the type: `256 instance of t255` holds.
// Item definitions this cannot judge (function items, no type) are left unbound, as before.

type Types = Record<string, TypeDef>;
type Test = (v: unknown) => boolean;

const baseTests = new Map<string, Test | undefined>();

/** The FEEL `instance of` test of a built-in type name, compiled once. */
function baseTest(typeRef: string): Test | undefined {
  if (!baseTests.has(typeRef)) {
    const c = compileExpression(`v instance of ${typeRef.replace(/^feel:/i, "")}`);
    baseTests.set(
      typeRef,
      c.ok
        ? (v) => {
            const r = c.value({ v });
            return r.ok && r.value === true;
          }
        : undefined,
    );
  }
  return baseTests.get(typeRef);
}

function testOf(def: TypeDef, types: Types, seen: Set<TypeDef>): Test | undefined {
  if (seen.has(def)) return undefined; // a recursive definition: not judged here
  seen.add(def);
  let one: Test | undefined;
  if (def.components) {
    const parts: [string, Test][] = [];
    for (const [k, c] of Object.entries(def.components)) {
      const t = testOf(c, types, seen);
      if (!t) return undefined;
      parts.push([k, t]);
    }
    one = (v) => isContextValue(v) && parts.every(([k, t]) => Object.hasOwn(v, k) && (v[k] == null || t(v[k])));
  } else if (def.typeRef) {
    const named = types[def.typeRef] ?? types[def.typeRef.replace(/^[^:]+:/, "")];
    one = named ? testOf(named, types, seen) : baseTest(def.typeRef);
  }
  seen.delete(def);
  if (!one || !def.isCollection) return one;
  const item = one;
  return (v) => Array.isArray(v) && v.every((x) => x == null || item(x));
}

const TYPE_AFTER = /(?:instance\s+of\s+|<\s*)([A-Za-z_][\w.]*)/g;

/** The item definitions `text` tests with `instance of`, bound for feelin; undefined when it names none. */
export function instanceOfTargets(text: string | undefined, types: Types): Record<string, unknown> | undefined {
  if (!text?.includes("instance")) return undefined;
  let out: Record<string, unknown> | undefined;
  for (const m of text.matchAll(TYPE_AFTER)) {
    const def = types[m[1]];
    const test = def && testOf(def, types, new Set());
    if (!test) continue;
    const target = () => {};
    Object.defineProperty(target, Symbol.hasInstance, { value: test });
    out ??= {};
    out[m[1]] = target;
  }
  return out;
}
