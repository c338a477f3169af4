import { doctypeRefusal } from "../doctype";
import { ModelLimitError, modelSizeRefusal } from "../model-limits";
import { BpmnModdle } from "bpmn-moddle";
import { BpmnDeployError, EngineError } from "../../errors";
import { readDiagram } from "./diagram";
import type { Unresolved } from "./element-details";
import { Extensions, type Moddle } from "./extensions";
import type { ParsedBpmn, ProcessModel } from "./types";

import { ProcessReader } from "./process-reader";
export { isActivityType, isContainerType } from "./element-kinds";

function collectUnresolved(
  warnings: Moddle[],
  byId: Record<string, Moddle>,
): { unresolved: Unresolved; messages: string[] } {
  const unresolved: Unresolved = new WeakMap();
  const messages: string[] = [];
  for (const w of warnings) {
    if (
      w.element &&
      w.property &&
      typeof w.value === "string" &&
      String(w.message).startsWith("unresolved reference")
    ) {
      const prop = String(w.property).replace(/^bpmn:/, "");
      // `tns:newInvoice`: a QName whose prefix names the target namespace, i.e. the local id.
      const local = w.value.includes(":") ? byId[w.value.split(":").pop()!] : undefined;
      if (local) {
        w.element[prop] = local;
        continue;
      }
      unresolved.set(w.element, { ...(unresolved.get(w.element) ?? {}), [prop]: w.value });
    } else messages.push(String(w.message).split("\n")[0]);
  }
  return { unresolved, messages };
}

/** Parses BPMN XML into plain process models; throws BpmnDeployError with a precise message on refusal. */
export async function parseBpmn(xml: string): Promise<ParsedBpmn> {
  const tooBig = modelSizeRefusal(xml, "BPMN");
  if (tooBig) throw new ModelLimitError(tooBig);
  const doctype = doctypeRefusal(xml);
  if (doctype) throw new BpmnDeployError(doctype);
  let result: Moddle;
  try {
    result = await new BpmnModdle().fromXML(xml);
  } catch (e) {
    throw new BpmnDeployError(`Malformed BPMN XML: ${String((e as Error).message).split("\n")[0]}`);
  }
  const defs = result.rootElement;
  if (defs?.$type !== "bpmn:Definitions")
    throw new BpmnDeployError("Malformed BPMN XML: the root element is not bpmn:definitions");
  const { unresolved, messages } = collectUnresolved(result.warnings ?? [], result.elementsById ?? {});
  const ext = new Extensions(defs);
  const procs: Moddle[] = (defs.rootElements ?? []).filter((r: Moddle) => r.$type === "bpmn:Process");
  const diagram = readDiagram(defs);
  const warnings = messages.map((m) => `XML: ${m}`);
  const processes: ProcessModel[] = [];
  for (const p of procs) {
    if (p.isExecutable === false) continue;
    try {
      const reader = new ProcessReader(p, ext, unresolved);
      const model = reader.read();
      model.diagram = diagram;
      processes.push(model);
      warnings.push(...reader.warnings);
    } catch (e) {
      // Over a size limit: 400 on validate too, never a finding of a model that would otherwise deploy.
      if (e instanceof ModelLimitError) throw new ModelLimitError(`Process '${p.id}': ${e.message}`);
      if (e instanceof EngineError) throw new BpmnDeployError(`Process '${p.id}': ${e.message}`);
      throw e;
    }
  }
  return { processes, allProcessIds: procs.map((p: Moddle) => p.id), warnings };
}
