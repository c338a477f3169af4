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
