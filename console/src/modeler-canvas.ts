/**
 * The bpmn-js modeler with the bpmn.io properties panel, imported only by the diagram editor page: Bun's bundler puts
 * them in lazy chunks, so no other page downloads them. The stylesheets are the ones the viewer links (served from the
 * installed packages, no CDN) plus the panel's. The Camunda 7 moddle and provider give the attributes the engine reads
 * (`camunda:assignee`, `candidateGroups`, `formKey`, `dueDate`, `priority`, async and retries, external topics,
 * script format, result variable, input/output); the Camunda behaviours keep them consistent as elements change type.
 */
import { linkStyles } from "./diagram";
import { lang } from "./i18n";
import { type PickerStore, pmsModdle, serviceProviderModule } from "./pages/modeler/service-provider";

export interface ModelerCanvas {
  /** The diagram as BPMN XML, formatted. */
  xml(): Promise<string>;
  /** Redraws the properties panel (the pickers' lists arrived). */
  refreshPanel(): void;
  destroy(): void;
}

const PANEL_STYLES = "/bpmn-js/properties-panel.css";

function linkPanelStyles(): void {
  if (document.querySelector(`link[href="${PANEL_STYLES}"]`)) return;
  const l = document.createElement("link");
  l.rel = "stylesheet";
  l.href = PANEL_STYLES;
  document.head.append(l);
}

interface PadInternals {
  isOpen(target?: unknown): boolean;
  _current: { html: HTMLElement };
  _createHtml(target: unknown): HTMLElement;
  getPad(target: unknown): { html: HTMLElement };
}

/**
 * bpmn-js 18 positions its replace (wrench) menu with diagram-js's `ContextPad#getPad`, which diagram-js 15 deprecates
 * with a console warning on every use. Same answer, without the warning, until bpmn-js stops calling it.
 */
function QuietContextPad(contextPad: PadInternals) {
  contextPad.getPad = (target) => ({
    html: contextPad.isOpen(target) ? contextPad._current.html : contextPad._createHtml(target),
  });
}
QuietContextPad.$inject = ["contextPad"];
const quietContextPad = { __init__: ["quietContextPad"], quietContextPad: ["type", QuietContextPad] };

/**
 * Opens `xml` for editing in `container` (palette, context pad, replace menu, direct editing of names, keyboard
 * shortcuts) with the properties of the selected element in `panel`, this service's pickers reading `pickers`.
 */
export async function openModeler(
  container: HTMLElement,
  panel: HTMLElement,
  xml: string,
  pickers: PickerStore,
): Promise<ModelerCanvas> {
  linkStyles();
  linkPanelStyles();
  const [{ default: Modeler }, props, { default: camundaModdle }, { default: CamundaBehaviors }, translation] =
    await Promise.all([
      import("bpmn-js/lib/Modeler"),
      import("bpmn-js-properties-panel"),
      import("camunda-bpmn-moddle/resources/camunda.json"),
      import("camunda-bpmn-js-behaviors/lib/camunda-platform"),
      // bpmn.io's own texts in the console's language: its translate service, loaded only for Portuguese
      lang() === "pt-BR" ? import("./bpmn-io-translate").then((m) => [m.bpmnTranslateModule()]) : [],
    ]);
  // The keyboard shortcuts bind to the canvas itself (diagram-js makes it focusable), not to the whole page.
  const modeler = new Modeler({
    container,
    propertiesPanel: { parent: panel },
    additionalModules: [
      props.BpmnPropertiesPanelModule,
      props.BpmnPropertiesProviderModule,
      props.CamundaPlatformPropertiesProviderModule,
      CamundaBehaviors,
      quietContextPad,
      serviceProviderModule(pickers),
      ...translation,
    ],
    moddleExtensions: { camunda: camundaModdle, pms: pmsModdle },
  });
  await modeler.importXML(xml);
  (modeler.get("canvas") as { zoom(mode: string): void }).zoom("fit-viewport");
  return {
    xml: async () => (await modeler.saveXML({ format: true })).xml ?? "",
    refreshPanel: () => (modeler.get("eventBus") as { fire(e: string): void }).fire("propertiesPanel.providersChanged"),
    destroy: () => modeler.destroy(),
  };
}

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** A new executable process holding one start event, for the modeler to grow. */
export function newDiagram(key: string, name: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" xmlns:pms="urn:pms:bpmn"
  id="Definitions_${escape(key)}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${escape(key)}" name="${escape(name)}" isExecutable="true">
    <bpmn:startEvent id="start" name="Start" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="Diagram_1">
    <bpmndi:BPMNPlane id="Plane_1" bpmnElement="${escape(key)}">
      <bpmndi:BPMNShape id="start_di" bpmnElement="start"><dc:Bounds x="180" y="160" width="36" height="36" /></bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</bpmn:definitions>`;
}
