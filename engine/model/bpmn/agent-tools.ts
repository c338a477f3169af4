import type { Extensions, Moddle } from "./extensions";
import type { ElementModel, ToolParam } from "./types";

const TYPES = new Set(["string", "number", "integer", "boolean", "array", "object"]);

/**
 * `fromAi(toolCall.name, "description", "type")`, the value an agent fills when it calls the activity as a tool
 * (Camunda 8's notation; a leading `=` (FEEL) or a `${...}` wrapper is accepted). Description and type are optional
 * (string by default). Answers null for any other value: an ordinary input mapping.
 */
export function readFromAi(src: string | undefined): { name: string; description: string; type: string } | null {
  if (!src) return null;
  const m =
    /^\s*(?:=|\$\{)?\s*fromAi\s*\(\s*(?:toolCall\.)?([A-Za-z_]\w*)\s*(?:,\s*"((?:[^"\\]|\\.)*)"\s*)?(?:,\s*"(\w+)"\s*)?[,)]/.exec(
      src,
    );
  if (!m) return null;
  const type = (m[3] ?? "string").toLowerCase();
  return { name: m[1], description: (m[2] ?? "").replace(/\\"/g, '"'), type: TYPES.has(type) ? type : "string" };
}

/** `localName` of a generic extension element, whatever its prefix. */
const localOf = (v: Moddle) => String(v?.$type ?? "").replace(/^[^:]*:/, "");

/**
 * What an activity offers an agent that runs its ad-hoc subprocess (docs/agents.md, "Agent over an ad-hoc
 * subprocess"): its documentation, and the input mappings the model fills, declared with `fromAi(...)` in an engine
 * namespace's `inputOutput/inputParameter` (Camunda 7, Flowable, ours) or in `zeebe:ioMapping/zeebe:input` (Camunda 8).
 * Those mappings are taken out of the service fields: the engine sets them from the model's arguments, never
 * evaluates them.
 */
export function readToolDeclaration(fe: Moddle, ext: Extensions, el: ElementModel): void {
  const doc = (fe.documentation ?? [])
    .map((d: Moddle) => String(d.text ?? "").trim())
    .filter(Boolean)
    .join("\n");
  if (doc) el.documentation = doc;
  const params: ToolParam[] = [];
  const add = (target: string | undefined, src: string | undefined) => {
    const f = readFromAi(src);
    if (!f || !target || params.some((p) => p.target === target)) return;
    params.push({ ...f, target });
    if (el.service?.fields[target] !== undefined) delete el.service.fields[target];
  };
  for (const io of ext.children(fe, "inputOutput"))
    for (const p of io.$children ?? [])
      if (ext.isNamed(p, "inputParameter")) add(p.name, p.$body !== undefined ? String(p.$body) : undefined);
  for (const v of fe.extensionElements?.values ?? [])
    if (localOf(v) === "ioMapping")
      for (const p of v.$children ?? []) if (localOf(p) === "input") add(p.target ?? p.$attrs?.target, p.source);
  if (params.length) el.toolParams = params;
}
