/**
 * The `translate` service bpmn.io's libraries (bpmn-js, diagram-js, the properties panel, dmn-js) call for every text
 * they show: their documented way to another language is an additional module that replaces it. Imported lazily by
 * the modeler and decision editor canvases only when the console speaks Portuguese, so the English chunks carry no
 * catalog; the catalogs themselves live beside the console's own (`locales/pt-BR/bpmn-io-*.ts`).
 */
import { bpmnDiagram } from "./locales/pt-BR/bpmn-io-diagram";
import { dmnEditor } from "./locales/pt-BR/bpmn-io-dmn";
import { bpmnPanel } from "./locales/pt-BR/bpmn-io-panel";
import { bpmnPanelTypes } from "./locales/pt-BR/bpmn-io-panel-types";

type Translate = (template: string, replacements?: Record<string, unknown>) => string;

/** A translate function over `words`: the template's translation (else the template), `{name}` filled in. */
export function translator(words: Record<string, string>): Translate {
  return (template, replacements = {}) =>
    (words[template] ?? template).replace(/\{([^}]+)\}/g, (whole, key: string) =>
      key in replacements ? String(replacements[key]) : whole,
    );
}

const moduleOf = (words: Record<string, string>) => ({ translate: ["value", translator(words)] });

/** For bpmn-js with the properties panel: the palette, context pad, replace menu and the panel's groups and fields. */
export const bpmnTranslateModule = () => moduleOf({ ...bpmnDiagram, ...bpmnPanel, ...bpmnPanelTypes });
/** For each of dmn-js's views (the DRD, decision tables, literal and boxed expressions). */
export const dmnTranslateModule = () => moduleOf(dmnEditor);
