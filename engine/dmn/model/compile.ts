import { compileBoxed } from "../boxed";
import type { CompileContext } from "../boxed/compile-context";
import { DmnParseError } from "../errors";
import type { DecisionDef, DmnModel, DrgDef, ImportedRequirement, TypeDef } from "../types";
import { importOf } from "./imports";
import { compileItemDefinitions } from "./item-definitions";
import type { ModdleElement } from "./moddle";
import { checkAcyclic } from "./requirements";

/** Turn dmn-moddle's object tree into the plain compiled model. */
export function compileDefinitions(defs: ModdleElement, imports: Record<string, DmnModel> = {}): DmnModel {
  const types = compileItemDefinitions(defs.itemDefinition);
  // an imported item definition is known by its qualified name (`import.tType`)
  for (const [name, m] of Object.entries(imports))
    for (const [t, def] of Object.entries(m.types)) types[`${name}.${t}`] ??= def;
  const raw: ModdleElement[] = defs.drgElement ?? [];
  const byId = new Map<string, ModdleElement>();
  for (const el of raw) {
    // DMN requires an id, yet the TCK and other engines accept elements with only a name (nothing can reference
    // them by href): such an element is known by its name.
    el.id ??= el.name;
    if (!el.id) throw new DmnParseError(`a ${tag(el)} has neither id nor name`, tag(el));
    if (byId.has(el.id)) throw new DmnParseError("duplicate id", el.id);
    byId.set(el.id, el);
  }
  const nameOf = (id: string) => byId.get(id)?.name ?? id;
  const elements: Record<string, DrgDef> = {};
  const idsByName: Record<string, string> = {};
  for (const el of raw) {
    const def = compileElement(el, { byId, nameOf, types, imports });
    if (def) {
      elements[def.id] = def;
      idsByName[def.name] ??= def.id;
    }
  }
  checkAcyclic(elements);
  const model: DmnModel = {
    id: defs.id ?? "",
    name: defs.name ?? defs.id ?? "",
    namespace: defs.namespace,
    elements,
    idsByName,
    types,
  };
  if (Object.keys(imports).length) model.imports = imports;
  return model;
}

interface Scope {
  byId: Map<string, ModdleElement>;
  nameOf: (id: string) => string;
  types: Record<string, TypeDef>;
  imports: Record<string, DmnModel>;
}

function compileElement(el: ModdleElement, sc: Scope): DrgDef | undefined {
  const { byId, nameOf, types } = sc;
  const id: string = el.id!;
  const name: string = el.name ?? id;
  const imported: ImportedRequirement[] = [];
  const refs = (list: ModdleElement[] | undefined, key: string) => {
    const local: string[] = [];
    for (const req of list ?? []) {
      const href: string | undefined = req[key]?.href;
      if (!req[key]) continue;
      const ext = href ? importOf(href, sc.imports) : null;
      if (ext) {
        const target = sc.imports[ext.import].elements[ext.id];
        if (!target) throw new DmnParseError(`requirement points to unknown imported element '${href}'`, req.id ?? id);
        imported.push({
          ...ext,
          kind: key === "requiredDecision" ? "decision" : key === "requiredInput" ? "input" : "knowledge",
        });
      } else local.push(resolveHref(href, byId, req.id ?? id));
    }
    return local;
  };
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
      if (imported.length) def.imported = imported;
      const scope = [
        ...[...def.requiredDecisions, ...def.requiredInputs, ...def.requiredKnowledge].map(nameOf),
        ...new Set(imported.map((r) => r.import)),
      ];
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

function resolveHref(href: string | undefined, byId: Map<string, ModdleElement>, owner: string): string {
  const id = (href ?? "").slice((href ?? "").indexOf("#") + 1);
  if (!id || !byId.has(id)) throw new DmnParseError(`requirement points to unknown element '${href ?? ""}'`, owner);
  return id;
}

function tag(el: ModdleElement): string {
  return el.$type.replace(/^dmn:/, "");
}
