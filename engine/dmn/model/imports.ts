import { DmnParseError } from "../errors";
import type { DmnModel } from "../types";
import type { ModdleElement } from "./moddle";

/** Finds the model a DMN `<import>` names by its namespace (the caller's models: a tenant's deployed decisions). */
export type ImportResolver = (namespace: string) => Promise<DmnModel | null>;

/** Import name → imported model, for the DMN models a file imports (DMN 1.5 §6.3.3; other import types refused). */
export async function resolveImports(
  defs: ModdleElement,
  resolve: ImportResolver | undefined,
): Promise<Record<string, DmnModel>> {
  const out: Record<string, DmnModel> = {};
  for (const imp of (defs.import ?? []) as ModdleElement[]) {
    const ns: string = imp.namespace ?? "";
    const name: string = imp.name ?? "";
    const type: string = imp.importType ?? "";
    if (!/omg\.org\/spec\/DMN\//i.test(type))
      throw new DmnParseError(`imports of type '${type}' are not supported (DMN models only)`, name || ns);
    if (!name) throw new DmnParseError(`the import of '${ns}' has no name`, ns);
    const model = resolve ? await resolve(ns) : null;
    if (!model) throw new DmnParseError(`no deployed DMN model has the imported namespace '${ns}'`, name);
    out[name] = model;
  }
  return out;
}

/** The import name of a requirement's `href` (`namespace#id`) when the namespace is an imported one's. */
export function importOf(href: string, imports: Record<string, DmnModel>): { import: string; id: string } | null {
  const hash = href.indexOf("#");
  if (hash <= 0) return null;
  const ns = href.slice(0, hash);
  const id = href.slice(hash + 1);
  for (const [name, m] of Object.entries(imports)) if (m.namespace === ns) return { import: name, id };
  return null;
}
