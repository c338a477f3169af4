/**
 * The bpmn-js modeler, imported only by the diagram editor page: Bun's bundler puts it (and bpmn-js) in lazy chunks,
 * so no other page downloads it. The stylesheets are the ones the viewer links, served from the installed package.
 */
import { linkStyles } from "./diagram";

export interface ModelerCanvas {
  /** The diagram as BPMN XML, formatted. */
  xml(): Promise<string>;
  destroy(): void;
}

/** Opens `xml` for editing in `container` (palette, context pad, direct editing of names, keyboard shortcuts). */
export async function openModeler(container: HTMLElement, xml: string): Promise<ModelerCanvas> {
  linkStyles();
  const { default: Modeler } = await import("bpmn-js/lib/Modeler");
  // The keyboard shortcuts bind to the canvas itself (diagram-js makes it focusable), not to the whole page.
  const modeler = new Modeler({ container });
  await modeler.importXML(xml);
  (modeler.get("canvas") as { zoom(mode: string): void }).zoom("fit-viewport");
  return {
    xml: async () => (await modeler.saveXML({ format: true })).xml ?? "",
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
