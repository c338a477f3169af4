import { BpmnDeployError } from "../../errors";
import type { Extensions, Moddle } from "./extensions";
import type { ElementModel } from "./types";

/** Languages a script or a condition may use: FEEL, the JUEL subset, and JavaScript (run in the sandbox port). */
export type ScriptLanguage = "feel" | "juel" | "javascript";

const REFUSED = /groovy|python|jython|ruby|jruby|kotlin|java$|beanshell|painless|mvel/i;

/** The language of a script or condition, or undefined when it is not one of ours (REFUSED languages throw). */
function languageOf(raw: string): ScriptLanguage | undefined {
  if (/^(javascript|js|ecmascript)$/i.test(raw)) return "javascript";
  if (/^juel$/i.test(raw)) return "juel";
  if (/^feel$|feel/i.test(raw)) return "feel";
  return undefined;
}

/** A sequence flow's condition language: JavaScript is run in the sandbox; Groovy and the like are refused with 400. */
export function conditionLanguage(flowId: string, raw: string, defer: (m: string) => void): "javascript" | undefined {
  const lang = languageOf(raw);
  if (lang === "javascript") return "javascript";
  if (!lang && REFUSED.test(raw))
    throw new BpmnDeployError(
      `Sequence flow '${flowId}' uses a '${raw}' condition: only FEEL, \${...} and JavaScript are supported`,
    );
  if (!lang) defer(`condition language '${raw}' is not supported (FEEL, \${...} or JavaScript only)`);
  return undefined;
}

/** A script task's script: FEEL (the default), JUEL or JavaScript; any other format is refused with 400. */
export function readScript(fe: Moddle, ext: Extensions): NonNullable<ElementModel["script"]> {
  const raw = String(fe.scriptFormat ?? "feel");
  const format = languageOf(raw);
  if (!format)
    throw new BpmnDeployError(
      `Script task '${fe.id}' uses scriptFormat '${raw}': only FEEL, JUEL and JavaScript scripts are supported`,
    );
  const body = String(fe.script ?? "").trim();
  if (!body) throw new BpmnDeployError(`Script task '${fe.id}' has an empty script`);
  return { format, body, resultVariable: ext.attr(fe, "resultVariable") ?? ext.attr(fe, "resultVariableName") };
}
