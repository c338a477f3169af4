import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ALL, actor, corpus, deployFile, item, makeCases, T } from "../fixtures/cmmn/harness";

export const walk = (d: string): string[] =>
  readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : [join(d, f)]));

/** Files the engine refuses, with the words the refusal must contain. */
export const REFUSED: Record<string, RegExp> = {
  "cmmn-moddle/error/duplicate-ids.cmmn": /not valid CMMN.*duplicate ID <test>/,
  "cmmn-moddle/extension-elements.cmmn": /No case found/,
  "cmmn-moddle/case-file-item-target-refs.cmmn": /has no casePlanModel/,
  "cmmn-moddle/simple.cmmn": /'javascript' conditions are not supported/,
  "flowable/runtime/IfPartTest.testManualEvaluateCriteria.cmmn": /sentry1.*method calls are not supported/,
};
export async function startFile(rel: string, vars: Record<string, unknown> = {}, extra: string[] = []) {
  const h = makeCases();
  for (const e of extra) await deployFile(h.rt, corpus(e));
  const d = await deployFile(h.rt, corpus(rel));
  const c = await h.rt.startCase(T, { definitionKey: d.definitions[0].key, variables: vars, startedBy: "kermit" });
  return { h, c, rt: h.rt, id: c.id };
}
export const trigger = (rt: ReturnType<typeof makeCases>["rt"], id: string, name: string) =>
  rt.triggerPlanItem(T, id, item(rt, id, name, name.length ? undefined : undefined).id, actor);
export const ended = (rt: ReturnType<typeof makeCases>["rt"], id: string) => rt.getCase(T, id, ALL).ended;
