import { compileUnaryTests } from "../feel-edge";
import type { TypeDef } from "../types";
import type { ModdleElement } from "./moddle";

/** Resolve the model's itemDefinitions into TypeDefs (structures, collections and allowed values). */
export function compileItemDefinitions(items: ModdleElement[] | undefined): Record<string, TypeDef> {
  const types: Record<string, TypeDef> = {};
  for (const item of items ?? []) {
    if (item.name) types[item.name] = toTypeDef(item);
  }
  return types;
}

function toTypeDef(item: ModdleElement): TypeDef {
  const where = item.id ?? item.name ?? "itemDefinition";
  const def: TypeDef = {
    name: item.name ?? where,
    typeRef: item.typeRef || undefined,
    isCollection: item.isCollection === true,
  };
  const components: ModdleElement[] = item.itemComponent ?? [];
  if (components.length) {
    def.components = {};
    for (const c of components) if (c.name) def.components[c.name] = toTypeDef(c);
  }
  const allowed: string | undefined = item.allowedValues?.text?.trim() || undefined;
  if (allowed) def.allowedValues = { text: allowed, test: compileUnaryTests(allowed, [], where) };
  return def;
}
