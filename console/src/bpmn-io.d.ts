// The bpmn.io modules the modeler loads ship no type declarations: only what modeler-canvas.ts uses is declared.

declare module "bpmn-js-properties-panel" {
  /** diagram-js modules, handed to the modeler's additionalModules as they are. */
  export const BpmnPropertiesPanelModule: Record<string, unknown>;
  export const BpmnPropertiesProviderModule: Record<string, unknown>;
  export const CamundaPlatformPropertiesProviderModule: Record<string, unknown>;
}

declare module "camunda-bpmn-js-behaviors/lib/camunda-platform" {
  const behaviours: Record<string, unknown>;
  export default behaviours;
}

// The properties panel's own building blocks, for this service's provider (console/src/pages/modeler/service-*.ts).
declare module "bpmn-js-properties-panel" {
  /** A service of the modeler (modeling, commandStack, bpmnFactory, debounceInput, …) from within a panel entry. */
  export function useService<T = unknown>(name: string, strict?: boolean): T;
}

declare module "@bpmn-io/properties-panel" {
  type Component = (props: Record<string, unknown>) => unknown;
  export const Group: Component;
  export const ListGroup: Component;
  export const TextFieldEntry: Component;
  export const SelectEntry: Component;
  export function isTextFieldEntryEdited(node: unknown): boolean;
  export function isSelectEntryEdited(node: unknown): boolean;
}
