import { compileBoxed } from "../boxed";
import type { CompileContext } from "../boxed/compile-context";
import { DmnParseError } from "../errors";
import type { DecisionDef, DmnModel, DrgDef, TypeDef } from "../types";
import { compileItemDefinitions } from "./item-definitions";
import type { ModdleElement } from "./moddle";
import { checkAcyclic } from "./requirements";

/** Turn dmn-moddle's object tree into the plain compiled model. */
export function compileDefinitions(defs: ModdleElement): DmnModel {
  const types = compileItemDefinitions(defs.itemDefinition);
  const raw: ModdleElement[] = defs.drgElement ?? [];
  const byId = new Map<string, ModdleElement>();
  for (const el of raw) {
    if (!el.id) throw new DmnParseError(`a ${tag(el)} has no id`, el.name ?? tag(el));
    if (byId.has(el.id)) throw new DmnParseError("duplicate id", el.id);
    byId.set(el.id, el);
  }
  const nameOf = (id: string) => byId.get(id)?.name ?? id;
  const elements: Record<string, DrgDef> = {};
  const idsByName: Record<string, string> = {};
  for (const el of raw) {
    const def = compileElement(el, byId, nameOf, types);
    if (def) {
      elements[def.id] = def;
      idsByName[def.name] ??= def.id;
    }
  }
  checkAcyclic(elements);
  return { id: defs.id ?? "", name: defs.name ?? defs.id ?? "", namespace: defs.namespace, elements, idsByName, types };
}

function compileElement(
  el: ModdleElement,
  byId: Map<string, ModdleElement>,
  nameOf: (id: string) => string,
  types: Record<string, TypeDef>,
): DrgDef | undefined {
  const id: string = el.id!;
  const name: string = el.name ?? id;
  const refs = (list: ModdleElement[] | undefined, key: string) => hrefs(list, key, byId, id);
  switch (el.$type) {
    case "dmn:InputData":
      return { kind: "inputData", id, name, typeRef: el.variable?.typeRef };
    case "dmn:Decision": {
      const def: DecisionDef = {
        kind: "decision",
        id,
        name,
        typeRef: el.variable?.typeRef,
        requiredDecisions: refs(el.informationRequirement, "requiredDecision"),
        requiredInputs: refs(el.informationRequirement, "requiredInput"),
        requiredKnowledge: refs(el.knowledgeRequirement, "requiredKnowledge"),
      };
      const scope = [...def.requiredDecisions, ...def.requiredInputs, ...def.requiredKnowledge].map(nameOf);
      const cc: CompileContext = { types, owner: name };
      if (el.decisionLogic) def.logic = compileBoxed(el.decisionLogic, scope, cc);
      return def;
    }
    case "dmn:BusinessKnowledgeModel": {
      const logic: ModdleElement | undefined = el.encapsulatedLogic;
      const parameters = (logic?.formalParameter ?? []).map((p: ModdleElement) => ({
        name: p.name as string,
        typeRef: p.typeRef,
      }));
      const requiredKnowledge = refs(el.knowledgeRequirement, "requiredKnowledge");
      if (logic?.kind && logic.kind !== "FEEL")
        throw new DmnParseError(`function kind ${logic.kind} is not supported (FEEL only)`, id);
      const scope = [...requiredKnowledge.map(nameOf), ...parameters.map((p: { name: string }) => p.name), name];
      const body = logic?.body ? compileBoxed(logic.body, scope, { types, owner: name }) : undefined;
      return { kind: "bkm", id, name, parameters, requiredKnowledge, body };
    }
    case "dmn:DecisionService": {
      const list = (key: string) => (el[key] ?? []).map((r: ModdleElement) => resolveHref(r.href, byId, id));
      return {
        kind: "decisionService",
        id,
        name,
        outputDecisions: list("outputDecision"),
        encapsulatedDecisions: list("encapsulatedDecision"),
        inputDecisions: list("inputDecision"),
        inputData: list("inputData"),
      };
    }
    default:
      return undefined; // knowledge sources and other documentation-only elements
  }
}

function hrefs(
  list: ModdleElement[] | undefined,
  key: string,
  byId: Map<string, ModdleElement>,
  owner: string,
): string[] {
  const out: string[] = [];
  for (const req of list ?? []) if (req[key]) out.push(resolveHref(req[key].href, byId, req.id ?? owner));
  return out;
}

function resolveHref(href: string | undefined, byId: Map<string, ModdleElement>, owner: string): string {
  const id = (href ?? "").slice((href ?? "").indexOf("#") + 1);
  if (!id || !byId.has(id)) throw new DmnParseError(`requirement points to unknown element '${href ?? ""}'`, owner);
  return id;
}

function tag(el: ModdleElement): string {
  return el.$type.replace(/^dmn:/, "");
}
