// Just enough typing for the two untyped packages the DMN model layer uses.
declare module "dmn-moddle" {
  export interface ModdleElement {
    $type: string;
    $attrs?: Record<string, string>;
    $parent?: ModdleElement;
    id?: string;
    name?: string;
    get(name: string): any;
    set(name: string, value: unknown): void;
    [key: string]: any;
  }
  export interface ParseResult {
    rootElement: ModdleElement;
    warnings: { message: string; element?: ModdleElement }[];
    references: unknown[];
    elementsById: Record<string, ModdleElement>;
  }
  export class DmnModdle {
    constructor(packages?: Record<string, unknown>, options?: Record<string, unknown>);
    fromXML(xml: string, typeName?: string): Promise<ParseResult>;
    toXML(element: ModdleElement, options?: { format?: boolean; preamble?: boolean }): Promise<{ xml: string }>;
    create(type: string, attrs?: Record<string, unknown>): ModdleElement;
  }
}

declare module "@bpmn-io/dmn-migrate" {
  export function migrateDiagram(xml: string): Promise<string>;
}
