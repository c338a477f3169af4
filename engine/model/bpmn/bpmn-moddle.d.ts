declare module "bpmn-moddle" {
  /** Minimal typing of bpmn-moddle's entry point: the engine reads its output defensively. */
  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    fromXML(
      xml: string,
      typeName?: string,
    ): Promise<{ rootElement: any; warnings: any[]; references: any[]; elementsById: Record<string, any> }>;
  }
}
